package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.DueTimes;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code copydesk due}: when articles are due (docs/deadlines.md). A supervisor sets a due time with a
 * reason, through the database's own operation; anyone lists what is due soon. Times are read and
 * shown in the caller's time zone ({@code --zone}, else the computer's), stored in UTC; how much time
 * is left is the database server's clock's answer.
 */
@Command(name = "due", description = "When articles are due: set one (with a reason), list what is due soon, forecast what will be"
        + " missed, report how the desks did (docs/deadlines.md).",
        mixinStandardHelpOptions = true, subcommands = {DueCommand.Set.class, DueCommand.ListDue.class, DueForecastCommand.class,
            DueReportCommand.class})
final class DueCommand {

    private static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT);

    private DueCommand() {
    }

    @Command(name = "set", description = {"Sets, moves or clears (none) an article's due time, with a reason (a supervisor's task).",
            "TIME: 2026-11-29T18:00:00Z or +01:00 (a moment), or 2026-11-29 18:00 or 18:00 (today) in --zone."})
    static final class Set extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "ARTICLE", description = "the article's number")
        long article;
        @Parameters(index = "1", paramLabel = "TIME", description = "when it is due, or none")
        String time;
        @Option(names = "--reason", required = true, description = "why (kept in the article's history)")
        String reason;
        @Option(names = "--zone", paramLabel = "ZONE", description = "the time zone of a TIME without an offset, and of what is"
                + " shown (default: the computer's, e.g. Europe/Paris)")
        String zone;

        private Instant due;
        private ZoneId zoneId;

        Set() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            zoneId = zone(zone, this);
            try {
                due = "none".equalsIgnoreCase(time.strip()) ? null : parse(time, zoneId, LocalDate.now(zoneId));
            } catch (DateTimeException e) {
                throw usage("TIME \"" + time + "\" is not a time such as 2026-11-29T18:00:00Z, 2026-11-29 18:00 or 18:00.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            DueTimes.DueChange c = session.dueTimes().set(null, article, due, reason);
            if (c.dueAt() == null) {
                out().println("Article " + article + " has no due time now (it was " + shown(c.oldDueAt(), zoneId) + ").");
            } else {
                out().println("Article " + article + " is due " + shown(c.dueAt(), zoneId) + ", " + left(c.dueAt(), c.serverNow())
                        + " (it was " + shown(c.oldDueAt(), zoneId) + ").");
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "list", description = "Lists the articles in review due within --within (the late ones first), earliest first.")
    static final class ListDue extends DatabaseCommand<ReviewSession> {
        @Option(names = "--desk", paramLabel = "DESK", description = "one desk only")
        String desk;
        @Option(names = "--within", defaultValue = "6h", converter = Durations.class,
                description = "how far ahead to look (default: ${DEFAULT-VALUE})")
        Duration within;
        @Option(names = "--zone", paramLabel = "ZONE", description = "the time zone times are shown in (default: the computer's)")
        String zone;
        @Option(names = "--json", description = "print one JSON object (times in UTC; the shape is in docs/deadlines.md)")
        boolean json;

        private ZoneId zoneId;

        ListDue() {
            super(DatabaseAccess.RUNNING_ONLY);
        }

        @Override
        void beforeOpening() {
            zoneId = zone(zone, this);
            if (within.isNegative()) {
                throw usage("--within must not be negative, e.g. 6h.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            if (desk != null) {
                session.newsroom().desk(desk).orElseThrow(() -> new Cli.CommandFailure("There is no desk '" + desk + "'."));
            }
            List<DueTimes.DueArticle> due = session.dueTimes().upcoming(desk, within);
            PrintWriter out = out();
            if (json) {
                printJson(out, due);
                return ExitCode.OK;
            }
            if (due.isEmpty()) {
                out.println("Nothing in review is due within " + Durations.format(within) + (desk == null ? "." : " on " + desk + "."));
                return ExitCode.OK;
            }
            Table t = new Table("DUE (" + zoneId.getId() + ")", "LEFT", "ARTICLE", "DESK", "STAGE", "HELD BY", "TITLE");
            for (DueTimes.DueArticle a : due) {
                t.row(shown(a.dueAt(), zoneId), left(a.dueAt(), a.serverNow()), a.id(), a.desk(), a.stage() == null ? "-" : a.stage(),
                        a.heldBy() == null ? "-" : a.heldBy(), Table.clip(a.title(), 40));
            }
            t.print(out);
            return ExitCode.OK;
        }

        private void printJson(PrintWriter out, List<DueTimes.DueArticle> due) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeNumberField("withinSeconds", within.toSeconds());
                JsonOutput.objects(g, "articles", due, (j, a) -> {
                    j.writeNumberField("articleId", a.id());
                    j.writeStringField("externalId", a.externalId());
                    j.writeStringField("desk", a.desk());
                    j.writeStringField("stage", a.stage());
                    j.writeStringField("title", a.title());
                    j.writeNumberField("priority", a.priority());
                    j.writeStringField("status", a.status());
                    j.writeStringField("heldBy", a.heldBy());
                    j.writeStringField("dueAt", a.dueAt().toString());
                    j.writeStringField("dueLocal", a.dueAt().atZone(zoneId).toOffsetDateTime().toString());
                    j.writeNumberField("secondsLeft", a.left().toSeconds());
                    j.writeBooleanField("late", a.late());
                });
                g.writeEndObject();
            });
        }
    }

    static ZoneId zone(String zone, DatabaseCommand<?> command) {
        try {
            return zone == null ? ZoneId.systemDefault() : ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw command.usage("--zone \"" + zone + "\" is not a time zone such as Europe/Paris, UTC or +01:00.");
        }
    }

    /**
     * A moment (with an offset or Z), or a wall-clock time in {@code zone}: a date and time, or a time
     * today. A local time that a daylight-saving change skips is moved on by the gap; one it repeats is
     * the earlier of the two (java.time's rule for ZonedDateTime.of).
     */
    static Instant parse(String text, ZoneId zone, LocalDate today) {
        String s = text.strip();
        if (s.length() > 10 && s.charAt(10) == ' ') {
            s = s.substring(0, 10) + 'T' + s.substring(11);
        }
        if (s.length() <= 8 && s.contains(":")) {
            return ZonedDateTime.of(today, LocalTime.parse(s), zone).toInstant();
        }
        TemporalAccessor t = DateTimeFormatter.ISO_DATE_TIME.parseBest(s, ZonedDateTime::from, OffsetDateTime::from,
                LocalDateTime::from);
        if (t instanceof ZonedDateTime z) {
            return z.toInstant();
        }
        if (t instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        return ZonedDateTime.of((LocalDateTime) t, zone).toInstant();
    }

    static String shown(Instant at, ZoneId zone) {
        return at == null ? "none" : SHOWN.format(at.atZone(zone));
    }

    /** "in 25m00s", or "LATE by 1h05m". */
    static String left(Instant due, Instant serverNow) {
        Duration left = Duration.between(serverNow, due);
        return left.isNegative() || left.isZero() ? "LATE by " + Durations.format(left.negated()) : "in " + Durations.format(left);
    }
}
