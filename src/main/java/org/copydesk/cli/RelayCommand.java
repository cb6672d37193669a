package org.copydesk.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.outcomes.OutcomeEvent;
import org.copydesk.review.outcomes.OutcomeServices;
import org.copydesk.review.outcomes.RelayProcedures;
import org.copydesk.review.outcomes.RelaySecret;
import org.copydesk.review.outcomes.RelaySettings;
import org.copydesk.review.outcomes.RelayState;
import org.copydesk.review.outcomes.WebhookRelay;
import org.copydesk.review.outcomes.WebhookSignature;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code copydesk relay --url URL}: posts every outcome to a webhook until stopped;
 * {@code relay status} and {@code relay retry} for supervisors.
 */
@Command(name = "relay",
        description = {"Posts every outcome of a review to a webhook (signed, with an idempotency key, in order per"
                + " article), retrying while the receiver fails, until stopped. Run it with a relay account"
                + " (copydesk integrations add NAME --kind relay). The secret's surrounding whitespace (a file's"
                + " final newline) is not part of it. See ${sys:copydesk.docs}/integration.md."},
        subcommands = {RelayCommand.Status.class, RelayCommand.Retry.class})
final class RelayCommand extends DatabaseCommand<OutcomeServices> {

    @Option(names = "--url", paramLabel = "URL", description = "the receiver, e.g. https://cms.example/hooks/copydesk")
    URI url;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "the signing secret, in a file only you can read (else " + RelaySecret.ENVIRONMENT + ")")
    Path secretFile;

    @Option(names = "--max-attempts", defaultValue = "12", description = "mark an outcome failed after this many attempts (default: ${DEFAULT-VALUE})")
    int maxAttempts;

    @Option(names = "--first-retry", defaultValue = "10s", converter = Durations.class,
            description = "wait after the first failed attempt; doubles each time (default: ${DEFAULT-VALUE})")
    Duration firstRetry;

    @Option(names = "--max-retry", defaultValue = "2h", converter = Durations.class,
            description = "longest wait between attempts (default: ${DEFAULT-VALUE})")
    Duration maxRetry;

    @Option(names = "--timeout", defaultValue = "10s", converter = Durations.class,
            description = "how long the receiver may take to answer (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--once", description = "deliver what is due now, then exit (for cron)")
    boolean once;

    private WebhookSignature signature;

    RelayCommand() {
        super(DatabaseAccess.OUTCOMES);
    }

    @Override
    void beforeOpening() {
        if (url == null) {
            throw usage("Give the receiver with --url (or use relay status / relay retry).");
        }
        byte[] secret = RelaySecret.load(secretFile, environment());
        signature = new WebhookSignature(secret);
        Arrays.fill(secret, (byte) 0);
    }

    @Override
    ExitCode run(OutcomeServices outcomes) throws InterruptedException {
        RelaySettings defaults = RelaySettings.defaults(url);
        RelaySettings settings = defaults.withAttempts(maxAttempts, firstRetry, maxRetry)
                .withTiming(timeout, defaults.poll(), defaults.leaseLength());
        PrintWriter out = out();
        try (WebhookRelay relay = outcomes.relay(signature, settings, new Printer(out))) {
            if (once) {
                int attempts = relay.drain();
                out.println(attempts == 0 ? "Nothing to deliver now." : "Made " + attempts + " delivery attempt(s).");
                return ExitCode.OK;
            }
            out.println("Relaying outcomes to " + url + ". Ctrl-C stops; a restart resumes where it stopped.");
            out.flush();
            Thread main = Thread.currentThread();
            // stop after the attempt under way, so it is recorded; the relay gives its lease back as it closes
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                relay.stop();
                try {
                    main.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "stop-relay"));
            relay.run();
        }
        return ExitCode.OK;
    }

    /** Says what the relay does, one line per attempt; says once that it waits for another relay. */
    private static final class Printer implements WebhookRelay.Listener {
        private final PrintWriter out;
        private String waitingFor;

        Printer(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void attempted(OutcomeEvent e, RelayProcedures.Delivery delivery, String answer) {
            waitingFor = null;
            out.println(switch (delivery) {
                case DELIVERED -> "Delivered " + e.cursor() + " (" + e.outcome() + ", article " + e.articleId() + ").";
                case FAILED -> "FAILED " + e.cursor() + " (" + e.outcome() + ", article " + e.articleId() + "): " + answer
                        + ". A supervisor can send it again: copydesk relay retry " + e.cursor();
                case WAITING -> "Not delivered " + e.cursor() + " (" + e.outcome() + ", article " + e.articleId() + "): " + answer
                        + "; trying again later.";
            });
            out.flush();
        }

        @Override
        public void waitingForLease(String holder, LocalDateTime until) {
            if (!holder.equals(waitingFor)) {
                waitingFor = holder;
                out.println("Another relay (" + holder + ") delivers; this one takes over if it stops (its turn ends "
                        + until.withNano(0).toString().replace('T', ' ') + " UTC unless renewed).");
                out.flush();
            }
        }

        @Override
        public void databaseTrouble(String message) {
            out.println("Waiting for the database: " + message);
            out.flush();
        }
    }

    @Command(name = "status",
            description = "Shows delivered, waiting and failed outcomes (with the receiver's last answer). For supervisors.")
    static final class Status extends DatabaseCommand<ReviewSession> {
        @Option(names = "--limit", defaultValue = "50", description = "list at most this many undelivered outcomes (default: ${DEFAULT-VALUE})")
        int limit;
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;

        Status() {
            super(DatabaseAccess.RUNNING_ONLY);
        }

        @Override
        void beforeOpening() {
            if (limit < 0) {
                throw usage("--limit must be 0 or more.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            PrintWriter out = out();
            RelayState state = session.relayState();
            RelayState.Counts c = state.counts();
            if (json) {
                printJson(out, c, state.activeRelay().orElse(null), state.undelivered(limit));
                return ExitCode.OK;
            }
            out.println("Delivered " + c.delivered() + ", waiting " + c.waiting() + ", failed " + c.failed() + ".");
            out.println(state.activeRelay().map(r -> "Relay at work: " + r.holder() + ".")
                    .orElse("No relay is running (outcomes wait until one does)."));
            var undelivered = state.undelivered(limit);
            if (!undelivered.isEmpty()) {
                Table t = new Table("CURSOR", "STATE", "OUTCOME", "ARTICLE", "DESK", "ATTEMPTS", "LAST ATTEMPT (UTC)", "LAST ANSWER");
                for (RelayState.Undelivered u : undelivered) {
                    t.row(u.cursor(), u.delivery(), u.outcome(), u.articleId() + " (" + Table.clip(u.externalId(), 24) + ")",
                            u.desk(), u.attempts(),
                            u.lastAttemptAt() == null ? "-" : u.lastAttemptAt().withNano(0).toString().replace('T', ' '),
                            u.lastAnswer() == null ? "-" : Table.clip(u.lastAnswer(), 60));
                }
                t.print(out);
            }
            return ExitCode.OK;
        }

        private static void printJson(PrintWriter out, RelayState.Counts c, RelayState.ActiveRelay relay,
                                      java.util.List<RelayState.Undelivered> undelivered) {
            JsonOutput.print(out, g -> {
                g.writeStartObject();
                g.writeNumberField("delivered", c.delivered());
                g.writeNumberField("waiting", c.waiting());
                g.writeNumberField("failed", c.failed());
                if (relay == null) {
                    g.writeNullField("relay");
                } else {
                    g.writeObjectFieldStart("relay");
                    g.writeStringField("holder", relay.holder());
                    JsonOutput.time(g, "until", relay.until());
                    g.writeEndObject();
                }
                JsonOutput.objects(g, "undelivered", undelivered, (j, u) -> {
                    j.writeNumberField("cursor", u.cursor());
                    j.writeStringField("state", u.delivery());
                    j.writeStringField("outcome", u.outcome());
                    j.writeNumberField("articleId", u.articleId());
                    j.writeStringField("externalId", u.externalId());
                    j.writeStringField("desk", u.desk());
                    j.writeNumberField("attempts", u.attempts());
                    JsonOutput.time(j, "lastAttemptAt", u.lastAttemptAt());
                    j.writeStringField("lastAnswer", u.lastAnswer());
                    JsonOutput.time(j, "nextAttemptAt", u.nextAttemptAt());
                    JsonOutput.time(j, "decidedAt", u.decidedAt());
                });
                g.writeEndObject();
            });
        }
    }

    @Command(name = "retry",
            description = "Sends a failed outcome again (or every failed one with --all-failed). For supervisors.")
    static final class Retry extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "CURSOR", description = "the failed outcome's cursor (relay status lists them)")
        Long cursor;
        @Option(names = "--all-failed", description = "every failed outcome")
        boolean all;

        Retry() {
            super(DatabaseAccess.RUNNING_ONLY);
        }

        @Override
        void beforeOpening() {
            if ((cursor == null) == !all) {
                throw usage("Name one failed outcome by its cursor, or give --all-failed.");
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            int n = session.relayState().retry(cursor);
            out().println(n == 0 ? "No outcome had failed." : "Sending " + n + " outcome(s) again; a running relay picks them up at once.");
            return ExitCode.OK;
        }
    }
}
