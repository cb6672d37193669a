package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.copydesk.review.outcomes.OutcomeEvent;
import org.copydesk.review.outcomes.OutcomeFeed;
import org.copydesk.review.outcomes.OutcomeJson;
import org.copydesk.review.outcomes.OutcomeServices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk feed --since CURSOR [--follow] [--json]}: the outcomes of reviews, in cursor order. */
@Command(name = "feed",
        description = {"Prints the outcomes of reviews (approved, rejected, changes requested, unreviewable, requeued)"
                + " after a cursor, oldest first. Keep the last cursor you saw and start there next time:"
                + " the same cursor gives the same events again. See ${sys:copydesk.docs}/integration.md."})
final class FeedCommand extends DatabaseCommand<OutcomeServices> {

    @Option(names = "--since", defaultValue = "0", paramLabel = "CURSOR", description = "print the events after this cursor (default: from the start)")
    long since;

    @Option(names = "--follow", description = "keep printing new events as they come, until stopped (Ctrl-C)")
    boolean follow;

    @Option(names = "--json", description = "one JSON object per line (the format of ${sys:copydesk.docs}/integration.md)")
    boolean json;

    @Option(names = "--limit", defaultValue = "1000", description = "at most this many events (without --follow; default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--interval", defaultValue = "1s", converter = Durations.class,
            description = "with --follow: how often to look for new events (default: ${DEFAULT-VALUE})")
    Duration interval;

    FeedCommand() {
        super(DatabaseAccess.OUTCOMES);
    }

    @Override
    void beforeOpening() {
        if (since < 0) {
            throw usage("A cursor is 0 or a number the feed printed.");
        }
        if (limit < 1) {
            throw usage("--limit must be 1 or more.");
        }
    }

    @Override
    ExitCode run(OutcomeServices outcomes) throws InterruptedException {
        PrintWriter out = out();
        OutcomeFeed feed = outcomes.feed();
        long cursor = since;
        if (!follow) {
            List<OutcomeEvent> events = feed.since(cursor, limit);
            events.forEach(e -> print(out, e));
            if (events.isEmpty() && !json) {
                out.println("No outcomes after cursor " + cursor + ".");
            }
            return ExitCode.OK;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "stop-feed"));
        while (stop.getCount() > 0) {
            for (OutcomeEvent e : feed.since(cursor, 500)) {
                print(out, e);
                cursor = e.cursor();
            }
            out.flush();
            stop.await(interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        return ExitCode.OK;
    }

    private void print(PrintWriter out, OutcomeEvent e) {
        if (json) {
            out.println(OutcomeJson.of(e));
            return;
        }
        out.println(e.cursor() + "  " + e.decidedAt().withNano(0).toString().replace('T', ' ') + "  " + e.outcome() + "  article "
                + e.articleId() + " (" + e.externalId() + ", " + e.desk() + ") by " + e.editor()
                + (e.notes().isBlank() ? "" : ": " + Table.clip(e.notes().replaceAll("\\s+", " "), 80)));
    }
}
