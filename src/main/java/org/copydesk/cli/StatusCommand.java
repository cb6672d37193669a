package org.copydesk.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Supervision;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code copydesk status}: who holds what, and counts per desk. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Shows who holds what and the queue per desk.")
final class StatusCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Option(names = "--json", description = "print JSON instead of tables")
    boolean json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (ReviewSession session = database.openRunning(2)) { // read-only: never starts a server
            List<Supervision.DeskHealth> desks = session.supervision().queueHealth();
            List<Supervision.ActiveLease> leases = session.supervision().activeLeases();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                printJson(out, desks, leases);
            } else {
                printTables(out, desks, leases);
            }
        }
        return 0;
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
        // one JSON value on one line, as every other --json prints (scripts read it a line at a time)
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeArrayFieldStart("desks");
            for (Supervision.DeskHealth d : desks) {
                g.writeStartObject();
                g.writeStringField("desk", d.desk());
                g.writeStringField("name", d.name());
                g.writeNumberField("waiting", d.waitingNow());
                g.writeNumberField("scheduled", d.scheduled());
                g.writeNumberField("inReview", d.inReview());
                g.writeNumberField("sentBack", d.sentBack());
                g.writeNumberField("quarantined", d.quarantined());
                g.writeNumberField("finishedToday", d.finishedToday());
                JsonOutput.time(g, "oldestWaitingSinceUtc", d.oldestWaitingSince());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("leases");
            for (Supervision.ActiveLease l : leases) {
                g.writeStartObject();
                g.writeStringField("editor", l.editorId());
                g.writeNumberField("article", l.articleId());
                g.writeStringField("desk", l.desk());
                g.writeStringField("title", l.title());
                g.writeNumberField("renewals", l.renewals());
                JsonOutput.time(g, "expiresAtUtc", l.expiresAt());
                g.writeNumberField("secondsLeft", l.timeLeft().toSeconds());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
    }
}
