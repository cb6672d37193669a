package org.copydesk.review.outcomes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.OperationRefusedException;
import org.copydesk.review.Phrase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts each outcome event to a receiver, in order per article, until stopped. Delivery state lives
 * in the database (written through {@link RelayProcedures}), so a relay that stops or dies resumes
 * where it was; only one relay delivers at a time (the delivery lease).
 *
 * <p>At least once, never silently dropped: an event counts as delivered only on a 2xx answer, so
 * a receiver that processed a request but whose answer was lost gets it again, with the same
 * {@code Idempotency-Key}; receivers keep the keys they have seen (docs/integration.md). An
 * article's later event is not sent before its earlier one is delivered.
 */
public final class WebhookRelay implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookRelay.class);

    /** What the relay tells whoever runs it (the command prints it). */
    public interface Listener {
        void attempted(OutcomeEvent event, RelayProcedures.Delivery delivery, String answer);

        void waitingForLease(String holder, LocalDateTime until);

        void databaseTrouble(String message);
    }

    private final RelayProcedures database;
    private final HttpClient http;
    private final WebhookSignature signature;
    private final RelaySettings settings;
    private final String instance;
    private final Clock clock;
    private final Listener listener;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile long token;

    public WebhookRelay(RelayProcedures database, WebhookSignature signature, RelaySettings settings, String instance,
                        Clock clock, Listener listener) {
        this.database = database;
        this.signature = signature;
        this.settings = settings;
        this.instance = instance;
        this.clock = clock;
        this.listener = listener;
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** A name for this relay process, shown to others waiting for the lease: host, process id and a random part. */
    public static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Delivers until {@link #stop()}; database trouble is reported and waited out, never fatal. */
    public void run() throws InterruptedException {
        while (stopped.getCount() > 0) {
            int attempted;
            try {
                attempted = runOnce();
            } catch (OperationRefusedException e) {
                listener.databaseTrouble(e.getMessage());
                token = 0;
                attempted = 0;
            } catch (IllegalStateException e) {
                throw e; // the schema or the account cannot serve a relay: nothing to wait for
            } catch (RuntimeException e) {
                log.debug("relay round failed", e);
                listener.databaseTrouble(ConnectionTrouble.describe(e));
                attempted = 0;
            }
            if (attempted == 0) {
                stopped.await(settings.poll().toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Delivers what is due now and returns (for cron): rounds until one attempts nothing, because
     * every remaining event waits for its back-off, is held behind a failed one, or there is none.
     * Returns how many attempts it made.
     */
    public int drain() {
        int total = 0;
        for (int attempts = runOnce(); attempts > 0 && stopped.getCount() > 0; attempts = runOnce()) {
            total += attempts;
        }
        return total;
    }

    /**
     * One round: takes or renews the delivery lease, then sends the events that are due (each
     * article's oldest undelivered one). Ends early when the receiver cannot be reached (the
     * others wait) or half the lease has passed. Returns how many attempts it made.
     */
    public int runOnce() {
        RelayProcedures.DeliveryLease lease = database.acquire(instance, (int) settings.leaseLength().toSeconds());
        if (!lease.held()) {
            token = 0;
            listener.waitingForLease(lease.holder(), lease.expiresAt());
            return 0;
        }
        token = lease.token();
        Instant roundEnds = clock.instant().plus(settings.leaseLength().dividedBy(2));
        List<RelayProcedures.Due> due = database.next(token, settings.batch());
        int attempts = 0;
        for (RelayProcedures.Due d : due) {
            if (stopped.getCount() == 0 || clock.instant().isAfter(roundEnds)) {
                break;
            }
            Attempt result = post(d.event());
            attempts++;
            RelayProcedures.Delivery delivery = database.recordAttempt(token, d.event().cursor(), result.delivered(), result.answer(),
                    settings.retryAfter(d.attempts() + 1).toMillis(), settings.maxAttempts());
            listener.attempted(d.event(), delivery, result.answer());
            if (result.unreachable()) {
                break;
            }
        }
        return attempts;
    }

    private record Attempt(boolean delivered, boolean unreachable, String answer) {
    }

    private Attempt post(OutcomeEvent event) {
        String body = OutcomeJson.of(event);
        WebhookSignature.Signed signed = new WebhookSignature.Signed(event.idempotencyKey(), event.outcome(),
                Long.toString(event.cursor()), body);
        HttpRequest request = HttpRequest.newBuilder(settings.url())
                .timeout(settings.timeout())
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "Copydesk-Relay")
                .header(WebhookSignature.IDEMPOTENCY_KEY, signed.idempotencyKey())
                .header(WebhookSignature.EVENT, signed.event())
                .header(WebhookSignature.CURSOR, signed.cursor())
                .header(WebhookSignature.HEADER, signature.header(clock.instant().getEpochSecond(), signed))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            int status = response.statusCode();
            String text = response.body() == null ? "" : ReceiverText.plain(response.body(), 300);
            String answer = "HTTP " + status + (text.isEmpty() ? "" : ": " + text);
            return new Attempt(status >= 200 && status < 300, false, answer);
        } catch (HttpTimeoutException e) {
            return new Attempt(false, false, Phrase.of("review.relay.noAnswer", settings.timeout().toSeconds()).text());
        } catch (IOException e) {
            return new Attempt(false, true, Phrase.of("review.relay.unreachable", e.getMessage() == null
                    ? e.getClass().getSimpleName() : ReceiverText.plain(e.getMessage(), 300)).text());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Attempt(false, true, Phrase.of("review.relay.stopped").text());
        }
    }

    /** Ends {@link #run()} after the attempt under way. */
    public void stop() {
        stopped.countDown();
    }

    /** Stops and gives the delivery lease up, so the next relay need not wait for it to run out. */
    @Override
    public void close() {
        stop();
        if (token > 0) {
            try {
                database.release(token);
            } catch (RuntimeException e) {
                log.debug("could not give the relay lease up; it runs out by itself", e);
            }
            token = 0;
        }
    }
}
