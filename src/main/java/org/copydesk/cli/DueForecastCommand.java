package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.DeadlineForecast;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.DeadlineForecast.Forecast;
import org.copydesk.review.Desk;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code copydesk due forecast}: what will be missed at the current pace (docs/deadlines.md, "The
 * forecast"), as the database's {@code deadline_forecast} computes it for a supervisor: the line
 * ("3 of the 8 due by 18:00 will miss at the current pace (3 editors, 12 an hour)"), each stage's
 * pace, and the articles due in the window with their expected times.
 */
@Command(name = "forecast", description = {"Forecasts which articles due soon will miss at the desk's current pace (a supervisor's task).",
        "Pace: each stage's decisions of the last hour. People: active in the last 3 minutes."})
final class DueForecastCommand extends DatabaseCommand<ReviewSession> {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    @Option(names = "--desk", paramLabel = "DESK", description = "one desk only (default: every desk)")
    String desk;
    @Option(names = "--within", defaultValue = "4h", converter = Durations.class,
            description = "how far ahead to look, 1m to 24h (default: ${DEFAULT-VALUE})")
    Duration within;
    @Option(names = "--zone", paramLabel = "ZONE", description = "the time zone times are shown in (default: the computer's)")
    String zone;
    @Option(names = "--json", description = "print one JSON object (times in UTC; the shape is in docs/deadlines.md)")
    boolean json;

    private ZoneId zoneId;

    DueForecastCommand() {
        super(DatabaseAccess.RUNNING_ONLY);
    }

    @Override
    void beforeOpening() {
        zoneId = DueCommand.zone(zone, this);
        if (within.compareTo(Duration.ofMinutes(1)) < 0 || within.compareTo(Duration.ofHours(24)) > 0) {
            throw usage("--within must be 1m to 24h, e.g. 4h.");
        }
    }

    @Override
    ExitCode run(ReviewSession session) {
        List<String> desks = new ArrayList<>();
        if (desk != null) {
            session.newsroom().desk(desk).orElseThrow(() -> new Cli.CommandFailure("There is no desk '" + desk + "'."));
            desks.add(desk);
        } else {
            session.newsroom().desks().stream().map(Desk::id).forEach(desks::add);
        }
        DeadlineForecast forecasts = session.deadlineForecast();
        List<Forecast> all = desks.stream().map(d -> forecasts.of(d, within)).toList();
        PrintWriter out = out();
        if (json) {
            printJson(out, all);
            return ExitCode.OK;
        }
        for (Forecast f : all) {
            out.println(f.desk() + ": " + line(f, zoneId));
            if (f.articles().isEmpty()) {
                continue;
            }
            Table stages = new Table("STAGE", "PER HOUR", "PEOPLE", "HELD");
            f.stages().forEach(s -> stages.row(s.stage() == null ? "-" : s.stage(), s.paced() ? s.perHour() : "no pace yet", s.people(),
                    s.held()));
            stages.print(out);
            Table t = new Table("DUE (" + zoneId.getId() + ")", "LEFT", "EXPECTED", "FORECAST", "ARTICLE", "STAGE", "HELD BY", "TITLE");
            for (DueArticle a : f.articles()) {
                t.row(DueCommand.shown(a.dueAt(), zoneId), DueCommand.left(a.dueAt(), f.serverNow()),
                        a.expectedAt() == null ? "-" : CLOCK.format(a.expectedAt().atZone(zoneId)), verdict(a), a.id(),
                        a.stage() == null ? "-" : a.stage(), a.heldBy() == null ? "-" : a.heldBy(), Table.clip(a.title(), 40));
            }
            t.print(out);
        }
        return ExitCode.OK;
    }

    /** "3 of the 8 due by 18:00 will miss at the current pace (3 editors, 12 an hour)". */
    static String line(Forecast f, ZoneId zone) {
        String by = CLOCK.format(f.dueUntil().atZone(zone));
        String pace = f.perHour() == null ? "no pace yet" : f.perHour() + " an hour";
        String people = f.people() + (f.people() == 1 ? " editor" : " editors");
        StringBuilder line = new StringBuilder();
        if (f.due() == 0) {
            line.append("nothing due by ").append(by);
        } else if (f.perHour() == null && f.atRisk() == 0) {
            line.append(f.due()).append(" due by ").append(by).append(": no forecast yet, nothing decided in the last hour");
        } else {
            line.append(f.atRisk()).append(" of the ").append(f.due()).append(" due by ").append(by)
                    .append(" will miss at the current pace");
        }
        line.append(" (").append(people).append(", ").append(pace).append(')');
        if (f.late() > 0) {
            line.append("; ").append(f.late()).append(" late already");
        }
        if (f.notForecast() > 0 && f.perHour() != null) {
            line.append("; ").append(f.notForecast()).append(" not forecast");
        }
        return line.append('.').toString();
    }

    private static String verdict(DueArticle a) {
        if (a.late()) {
            return "LATE";
        }
        if (a.notForecast() != null) {
            return switch (a.notForecast()) {
                case NO_PACE -> "no pace yet";
                case ON_HOLD -> "on hold";
                case WITH_WRITER -> "with the writer";
                case QUARANTINED -> "quarantined";
            };
        }
        return a.atRisk() ? "AT RISK" : "in time";
    }

    private void printJson(PrintWriter out, List<Forecast> all) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            g.writeNumberField("withinSeconds", within.toSeconds());
            JsonOutput.objects(g, "forecasts", all, (j, f) -> {
                j.writeStringField("desk", f.desk());
                j.writeStringField("line", line(f, zoneId));
                j.writeStringField("serverNow", f.serverNow().toString());
                j.writeStringField("dueUntil", f.dueUntil().toString());
                j.writeNumberField("paceMinutes", f.paceMinutes());
                j.writeNumberField("due", f.due());
                j.writeNumberField("atRisk", f.atRisk());
                j.writeNumberField("late", f.late());
                j.writeNumberField("notForecast", f.notForecast());
                j.writeNumberField("people", f.people());
                if (f.perHour() == null) {
                    j.writeNullField("perHour");
                } else {
                    j.writeNumberField("perHour", f.perHour());
                }
                JsonOutput.objects(j, "stages", f.stages(), (k, s) -> {
                    k.writeStringField("stage", s.stage());
                    k.writeStringField("name", s.name());
                    k.writeBooleanField("always", s.always());
                    k.writeNumberField("perHour", s.perHour());
                    k.writeNumberField("people", s.people());
                    k.writeNumberField("held", s.held());
                });
                JsonOutput.objects(j, "articles", f.articles(), (k, a) -> {
                    k.writeNumberField("articleId", a.id());
                    k.writeStringField("externalId", a.externalId());
                    k.writeStringField("title", a.title());
                    k.writeNumberField("priority", a.priority());
                    k.writeStringField("stage", a.stage());
                    k.writeStringField("status", a.status());
                    k.writeStringField("heldBy", a.heldBy());
                    k.writeStringField("dueAt", a.dueAt().toString());
                    k.writeStringField("dueLocal", a.dueAt().atZone(zoneId).toOffsetDateTime().toString());
                    k.writeNumberField("secondsLeft", a.left(f.serverNow()).toSeconds());
                    k.writeStringField("expectedAt", a.expectedAt() == null ? null : a.expectedAt().toString());
                    if (a.position() == null) {
                        k.writeNullField("position");
                    } else {
                        k.writeNumberField("position", a.position());
                    }
                    k.writeBooleanField("late", a.late());
                    k.writeBooleanField("atRisk", a.atRisk());
                    k.writeStringField("notForecast", a.notForecast() == null ? null : a.notForecast().name().toLowerCase(Locale.ROOT));
                    k.writeBooleanField("told", a.told());
                });
            });
            g.writeEndObject();
        });
    }
}
