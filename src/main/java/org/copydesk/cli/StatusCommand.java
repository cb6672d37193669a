package org.copydesk.cli;

import java.io.PrintWriter;
import java.util.List;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Supervision;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk status}: who holds what, and counts per desk. */
@Command(name = "status", description = "Shows who holds what and the queue per desk.")
final class StatusCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--json", description = "print JSON instead of tables")
    boolean json;

    StatusCommand() {
        super(DatabaseAccess.RUNNING_ONLY);
    }

    @Override
    ExitCode run(ReviewSession session) {
        List<Supervision.DeskHealth> desks = session.supervision().queueHealth();
        List<Supervision.ActiveLease> leases = session.supervision().activeLeases();
        if (json) {
            printJson(out(), desks, leases);
        } else {
            printTables(out(), desks, leases);
        }
        return ExitCode.OK;
    }

    private static void printTables(PrintWriter out, List<Supervision.DeskHealth> desks, List<Supervision.ActiveLease> leases) {
        Table deskTable = new Table("DESK", "WAITING", "SCHEDULED", "IN REVIEW", "SENT BACK", "QUARANTINED", "DONE TODAY", "OLDEST WAITING SINCE (UTC)");
        for (Supervision.DeskHealth d : desks) {
            deskTable.row(d.name(), d.waitingNow(), d.scheduled(), d.inReview(), d.sentBack(), d.quarantined(), d.finishedToday(),
                    d.oldestWaitingSince() == null ? "-" : d.oldestWaitingSince().withNano(0).toString().replace('T', ' '));
        }
        deskTable.print(out);
        out.println();
        if (leases.isEmpty()) {
            out.println("Nobody holds an article right now.");
            return;
        }
        Table holders = new Table("EDITOR", "ARTICLE", "DESK", "TITLE", "RENEWALS", "TIME LEFT");
        for (Supervision.ActiveLease l : leases) {
            holders.row(l.editorName(), l.articleId(), l.desk(), Table.clip(l.title(), 48), l.renewals(), Durations.format(l.timeLeft()));
        }
        holders.print(out);
    }

    private static void printJson(PrintWriter out, List<Supervision.DeskHealth> desks, List<Supervision.ActiveLease> leases) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            JsonOutput.objects(g, "desks", desks, (j, d) -> {
                j.writeStringField("desk", d.desk());
                j.writeStringField("name", d.name());
                j.writeNumberField("waiting", d.waitingNow());
                j.writeNumberField("scheduled", d.scheduled());
                j.writeNumberField("inReview", d.inReview());
                j.writeNumberField("sentBack", d.sentBack());
                j.writeNumberField("quarantined", d.quarantined());
                j.writeNumberField("finishedToday", d.finishedToday());
                JsonOutput.time(j, "oldestWaitingSinceUtc", d.oldestWaitingSince());
            });
            JsonOutput.objects(g, "leases", leases, (j, l) -> {
                j.writeStringField("editor", l.editorId());
                j.writeNumberField("article", l.articleId());
                j.writeStringField("desk", l.desk());
                j.writeStringField("title", l.title());
                j.writeNumberField("renewals", l.renewals());
                JsonOutput.time(j, "expiresAtUtc", l.expiresAt());
                j.writeNumberField("secondsLeft", l.timeLeft().toSeconds());
            });
            g.writeEndObject();
        });
    }
}
