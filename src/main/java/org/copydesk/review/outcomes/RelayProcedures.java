package org.copydesk.review.outcomes;

import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.Supplier;
import org.copydesk.review.DatabaseOperations;
import org.copydesk.review.Operation;
import org.jooq.Record;

/**
 * The relay's operations in the database, one call each: the delivery lease and the delivery
 * state. A relay account may call these and nothing else; every write is fenced by the delivery
 * lease's token, so a relay that lost the lease (another took over) writes nothing. Retries and
 * refusals: {@link DatabaseOperations}.
 */
public final class RelayProcedures {

    /** The delivery lease: held when {@code token > 0}; otherwise who holds it and until when. */
    public record DeliveryLease(long token, String holder, LocalDateTime expiresAt, LocalDateTime serverNow) {
        public boolean held() {
            return token > 0;
        }
    }

    /** An event due for delivery and how often it has been tried. */
    public record Due(OutcomeEvent event, int attempts) {
    }

    private static final SecureRandom TOKENS = new SecureRandom();

    /** An outcome's delivery state after an attempt, as {@code relay_record_attempt} answers it. */
    public enum Delivery implements DatabaseOperations.Outcome {
        DELIVERED,
        /** Tried again later. */
        WAITING,
        /** Out of attempts: a supervisor may send it again. */
        FAILED
    }

    private final DatabaseOperations operations;

    public RelayProcedures(DatabaseOperations operations) {
        this.operations = operations;
    }

    /**
     * Takes or renews the delivery lease. A relay that takes it over names the token its writes will
     * carry: a random number, so that no other relay can guess it (they were consecutive before, and
     * a second relay could release the lease or record attempts under the holder's token).
     */
    public DeliveryLease acquire(String instance, int seconds) {
        long candidate = TOKENS.nextLong() & Long.MAX_VALUE | 1L << 62;
        Record r = explained(() -> operations.fetch(Operation.RELAY_ACQUIRE, instance, seconds, candidate)).get(0);
        return new DeliveryLease(r.get("token", Long.class), r.get("holder", String.class),
                r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class));
    }

    public void release(long token) {
        explained(() -> operations.fetch(Operation.RELAY_RELEASE, token));
    }

    public List<Due> next(long token, int batch) {
        return explained(() -> operations.fetch(Operation.RELAY_NEXT, token, batch))
                .map(r -> new Due(new OutcomeEvent(r.get("cursor_id", Long.class), r.get("idempotency_key", String.class),
                        r.get("outcome", String.class), r.get("article_id", Long.class), r.get("external_id", String.class),
                        r.get("desk_id", String.class), r.get("editor_id", String.class), r.get("verdict", String.class),
                        r.get("notes", String.class), r.get("article_status", String.class), r.get("send_backs", Integer.class),
                        r.get("returns_at", LocalDateTime.class), r.get("lease_token", Long.class),
                        r.get("decided_at", LocalDateTime.class), r.get("stage_id", String.class),
                        r.get("to_stage_id", String.class), r.get("due_at", LocalDateTime.class)), r.get("attempts", Integer.class)));
    }

    /**
     * Records one attempt. Returns the event's delivery state afterwards: delivered, waiting (tried
     * again after {@code retryMillis}) or failed (after {@code maxAttempts} attempts).
     */
    public Delivery recordAttempt(long token, long cursor, boolean delivered, String answer, long retryMillis, int maxAttempts) {
        String text = answer == null ? null : answer.length() > 1000 ? answer.substring(0, 997) + "..." : answer;
        String code = explained(() -> operations.fetch(Operation.RELAY_RECORD_ATTEMPT, token, cursor, delivered ? 1 : 0, text,
                retryMillis, maxAttempts)).get(0).get("delivery", String.class);
        return DatabaseOperations.outcome(Operation.RELAY_RECORD_ATTEMPT, Delivery.class, code);
    }

    /** A feed the database does not have yet, or may not be used this way, in words an integrator can act on. */
    static <T> T explained(Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw FeedMissing.explain(e);
        }
    }
}
