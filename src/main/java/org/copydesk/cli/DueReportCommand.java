package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.DeadlineReport;
import org.copydesk.review.DeadlineReport.Day;
import org.copydesk.review.DeadlineReport.Report;
import org.copydesk.review.DeadlineReport.Row;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code copydesk due report}: how the desks did (docs/deadlines.md, "How the desk did"), as the
 * database's {@code deadline_report} computes it for a supervisor: per day, desk and stage, the
 * decisions, the share of those with a due time made by it, and the median and 90th percentile of
 * the time from arrival to decision; then the same over all the days. The days are the caller's
 * calendar days ({@code --zone}, else the computer's), today (by the server's clock) the last.
 */
@Command(name = "report", description = {"How the desks did: per day, desk and stage, decisions, the share decided by the due time,"
        + " and the median (p50) and p90 time from arrival to decision (a supervisor's task).",
        "On a desk with stages, the stage '(through)' is its final decisions, timed from arrival through the whole chain.",
        "Days are calendar days in the computer's time zone (or --zone), today the last; a day a clock change shortens or lengthens"
                + " is 23 or 25 hours. Percentiles by nearest rank."})
final class DueReportCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--desk", paramLabel = "DESK", description = "one desk only (default: every desk)")
    String desk;
    @Option(names = "--days", paramLabel = "N", defaultValue = "7", description = "today and the N-1 days before it, 1 to "
            + DeadlineReport.MAX_DAYS + " (default: ${DEFAULT-VALUE})")
    int days;
    @Option(names = "--zone", paramLabel = "ZONE", description = "the time zone whose days are counted (default: the computer's)")
    String zone;
    @Option(names = "--json", description = "print one JSON object (the shape is in docs/deadlines.md)")
    boolean json;

    private ZoneId zoneId;

    DueReportCommand() {
        super(DatabaseAccess.RUNNING_ONLY);
    }

    @Override
    void beforeOpening() {
        zoneId = DueCommand.zone(zone, this);
        if (days < 1 || days > DeadlineReport.MAX_DAYS) {
            throw usage("--days must be 1 to " + DeadlineReport.MAX_DAYS + ".");
        }
    }

    @Override
    ExitCode run(ReviewSession session) {
        if (desk != null) {
            session.newsroom().desk(desk).orElseThrow(() -> new Cli.CommandFailure("There is no desk '" + desk + "'."));
        }
        DeadlineReport reports = session.deadlineReport();
        Report report = reports.of(desk, DeadlineReport.daysUpTo(reports.serverNow(), days, zoneId));
        PrintWriter out = out();
        if (json) {
            printJson(out, report);
            return ExitCode.OK;
        }
        if (report.perDay().isEmpty()) {
            out.println(days == 1 ? "No decisions today." : "No decisions in these " + days + " days.");
            return ExitCode.OK;
        }
        Table t = new Table("DAY (" + zoneId.getId() + ")", "DESK", "STAGE", "DECISIONS", "WITH DUE", "IN TIME", "P50", "P90");
        for (Row r : report.perDay()) {
            row(t, r.day().toString() + hours(report, r), r);
        }
        for (Row r : report.wholeSpan()) {
            row(t, "all " + days + (days == 1 ? " day" : " days"), r);
        }
        t.print(out);
        return ExitCode.OK;
    }

    /** " (25 h)" after a day a clock change lengthened or shortened. */
    private static String hours(Report report, Row r) {
        Day d = report.days().stream().filter(x -> x.date().equals(r.day())).findFirst().orElseThrow();
        long h = Duration.between(d.start(), d.end()).toHours();
        return h == 24 ? "" : " (" + h + " h)";
    }

    private static void row(Table t, String day, Row r) {
        String stage = r.throughDesk() ? "(through)" : r.stage() == null ? "-" : r.stage();
        t.row(day, r.desk(), stage, r.decisions(), r.withDue(), share(r), span(r.p50()), span(r.p90()));
    }

    /** "75% (3 of 4)", or "-" when none had a due time. */
    static String share(Row r) {
        return r.shareInTime() == null ? "-" : Math.round(r.shareInTime() * 100) + "% (" + r.inTime() + " of " + r.withDue() + ")";
    }

    /** "45 s", "42 min", "1 h 5 min". */
    static String span(Duration d) {
        if (d == null) {
            return "-";
        }
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        long m = s / 60;
        return m < 60 ? m + " min" : m / 60 + " h" + (m % 60 == 0 ? "" : " " + m % 60 + " min");
    }

    private static void seconds(com.fasterxml.jackson.core.JsonGenerator j, String name, Long seconds) throws java.io.IOException {
        if (seconds == null) {
            j.writeNullField(name);
        } else {
            j.writeNumberField(name, seconds);
        }
    }

    private void printJson(PrintWriter out, Report report) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            g.writeStringField("zone", zoneId.getId());
            JsonOutput.objects(g, "days", report.days(), (j, d) -> {
                j.writeStringField("date", d.date().toString());
                j.writeStringField("start", d.start().toString());
                j.writeStringField("end", d.end().toString());
            });
            for (String part : List.of("rows", "wholeSpan")) {
                JsonOutput.objects(g, part, part.equals("rows") ? report.perDay() : report.wholeSpan(), (j, r) -> {
                    if (r.day() != null) {
                        j.writeStringField("day", r.day().toString());
                    }
                    j.writeStringField("desk", r.desk());
                    j.writeStringField("stage", r.stage());
                    j.writeStringField("stageName", r.stageName());
                    j.writeBooleanField("throughDesk", r.throughDesk());
                    j.writeNumberField("decisions", r.decisions());
                    j.writeNumberField("withDue", r.withDue());
                    j.writeNumberField("inTime", r.inTime());
                    if (r.shareInTime() == null) {
                        j.writeNullField("shareInTime");
                    } else {
                        j.writeNumberField("shareInTime", r.shareInTime());
                    }
                    seconds(j, "p50Seconds", r.p50Seconds());
                    seconds(j, "p90Seconds", r.p90Seconds());
                });
            }
            g.writeEndObject();
        });
    }
}
