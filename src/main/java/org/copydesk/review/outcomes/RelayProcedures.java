package org.copydesk.review.outcomes;

import java.time.LocalDateTime;
import java.util.List;
import java.util.function.Supplier;
import org.copydesk.lease.LeaseEngine;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The relay's operations in the database (db/routines/R__relay_*.sql), one call each: the delivery lease and
 * the delivery state. A relay account may call these and nothing else; every write is fenced by the
 * delivery lease's token, so a relay that lost the lease (another took over) writes nothing.
 * Deadlocks and lock wait timeouts are retried (bounded) through the lease engine's policy.
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

    private static final java.security.SecureRandom TOKENS = new java.security.SecureRandom();

    private final DSLContext dsl;
    private final LeaseEngine retries;

    public RelayProcedures(DSLContext dsl, LeaseEngine retries) {
        this.dsl = dsl;
        this.retries = retries;
    }

    /**
     * Takes or renews the delivery lease. A relay that takes it over names the token its writes will
     * carry: a random number, so that no other relay can guess it (they were consecutive before, and
     * a second relay could release the lease or record attempts under the holder's token).
     */
    public DeliveryLease acquire(String instance, int seconds) {
        long candidate = TOKENS.nextLong() & Long.MAX_VALUE | 1L << 62;
        Record r = call("relay lease", () -> dsl.fetch("call relay_acquire(?, ?, ?)", instance, seconds, candidate)).get(0);
        return new DeliveryLease(r.get("token", Long.class), r.get("holder", String.class),
                r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class));
    }

    public void release(long token) {
        call("relay release", () -> dsl.fetch("call relay_release(?)", token));
    }

    public List<Due> next(long token, int batch) {
        return call("relay next", () -> dsl.fetch("call relay_next(?, ?)", token, batch))
                .map(r -> new Due(new OutcomeEvent(r.get("cursor_id", Long.class), r.get("idempotency_key", String.class),
                        r.get("outcome", String.class), r.get("article_id", Long.class), r.get("external_id", String.class),
                        r.get("desk_id", String.class), r.get("editor_id", String.class), r.get("verdict", String.class),
                        r.get("notes", String.class), r.get("article_status", String.class), r.get("send_backs", Integer.class),
                        r.get("returns_at", LocalDateTime.class), r.get("lease_token", Long.class),
                        r.get("decided_at", LocalDateTime.class)), r.get("attempts", Integer.class)));
    }

    /**
     * Records one attempt. Returns the event's delivery state afterwards: delivered, waiting (tried
     * again after {@code retryMillis}) or failed (after {@code maxAttempts} attempts).
     */
    public String recordAttempt(long token, long cursor, boolean delivered, String answer, long retryMillis, int maxAttempts) {
        String text = answer == null ? null : answer.length() > 1000 ? answer.substring(0, 997) + "..." : answer;
        return call("relay attempt", () -> dsl.fetch("call relay_record_attempt(?, ?, ?, ?, ?, ?)", token, cursor,
                delivered ? 1 : 0, text, retryMillis, maxAttempts)).get(0).get("delivery", String.class);
    }

    private <T> T call(String operation, Supplier<T> work) {
        try {
            return retries.retrying(operation, work);
        } catch (RuntimeException e) {
            throw FeedMissing.explain(e);
        }
    }
}
