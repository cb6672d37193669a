package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.WaitingForWriters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk waiting}: what was sent back for changes and waits for its writer, per desk; flags the overdue. */
@Command(name = "waiting",
        description = "Shows, per desk, the articles sent back for changes that wait for their writer's revision,"
                + " and lists those waiting longer than --overdue (exit code 4 when there are any, for monitors).")
final class WaitingCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--overdue", defaultValue = "3d", converter = Durations.class,
            description = "an article waiting longer than this is flagged (default: ${DEFAULT-VALUE})")
    Duration overdue;

    @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
    boolean json;

    WaitingCommand() {
        super(DatabaseAccess.RUNNING_ONLY);
    }

    @Override
    void beforeOpening() {
        if (overdue.isNegative() || overdue.isZero()) {
            throw usage("--overdue must be a positive duration, e.g. 3d or 36h.");
        }
    }

    @Override
    ExitCode run(ReviewSession session) {
        WaitingForWriters waiting = session.waitingForWriters();
        List<WaitingForWriters.DeskWait> desks = waiting.perDesk(overdue);
        List<WaitingForWriters.Overdue> late = waiting.overdue(overdue, 200);
        PrintWriter out = out();
        ExitCode code = late.isEmpty() ? ExitCode.OK : ExitCode.SOME_OVERDUE;
        if (json) {
            printJson(out, desks, late);
            return code;
        }
        if (desks.isEmpty()) {
            out.println("Nothing waits for a writer's revision.");
            return ExitCode.OK;
        }
        Table table = new Table("DESK", "WAITING FOR WRITERS", "SINCE (UTC)", "OVERDUE (> " + Durations.format(overdue) + ")");
        for (WaitingForWriters.DeskWait d : desks) {
            table.row(d.name(), d.waiting(), time(d.oldestSince()), d.overdue());
        }
        table.print(out);
        if (late.isEmpty()) {
            return code;
        }
        out.println();
        out.println("Overdue: sent back longer than " + Durations.format(overdue) + " ago and no revision came in:");
        Table overdueTable = new Table("ARTICLE", "EXTERNAL ID", "DESK", "TITLE", "SENT BACK BY", "SINCE (UTC)", "NOTES");
        for (WaitingForWriters.Overdue o : late) {
            overdueTable.row(o.articleId(), o.externalId(), o.desk(), Table.clip(o.title(), 40), o.sentBackBy(),
                    time(o.since()), Table.clip(o.notes() == null ? "" : o.notes(), 40));
        }
        overdueTable.print(out);
        return code;
    }

    private void printJson(PrintWriter out, List<WaitingForWriters.DeskWait> desks, List<WaitingForWriters.Overdue> late) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            g.writeNumberField("overdueAfterSeconds", overdue.toSeconds());
            JsonOutput.objects(g, "desks", desks, (j, d) -> {
                j.writeStringField("desk", d.desk());
                j.writeStringField("name", d.name());
                j.writeNumberField("waiting", d.waiting());
                JsonOutput.time(j, "oldestSince", d.oldestSince());
                j.writeNumberField("overdue", d.overdue());
            });
            JsonOutput.objects(g, "overdue", late, (j, o) -> {
                j.writeNumberField("articleId", o.articleId());
                j.writeStringField("externalId", o.externalId());
                j.writeStringField("desk", o.desk());
                j.writeStringField("title", o.title());
                j.writeStringField("sentBackBy", o.sentBackBy());
                JsonOutput.time(j, "since", o.since());
                j.writeStringField("notes", o.notes());
            });
            g.writeEndObject();
        });
    }

    private static String time(LocalDateTime t) {
        return t == null ? "-" : t.withNano(0).toString().replace('T', ' ');
    }
}
