package org.copydesk.review.outcomes;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.RELAY_LEASE;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DatabaseOperations;
import org.copydesk.review.Operation;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * What supervisors see of the relay: how many outcomes were delivered, wait, or failed (with the
 * receiver's last answer), which relay delivers right now, and a retry of failed ones (through the
 * database's {@code relay_retry}, which writes the history).
 */
public final class RelayState {

    public record Counts(int delivered, int waiting, int failed) {
    }

    /** An outcome not delivered yet: waiting (with its next attempt) or failed. */
    public record Undelivered(long cursor, long articleId, String externalId, String title, String desk, String outcome, String delivery,
                              int attempts, LocalDateTime lastAttemptAt, String lastAnswer, LocalDateTime nextAttemptAt,
                              LocalDateTime decidedAt) {
    }

    /** The relay that holds the delivery lease, and until when (renewed while it runs). */
    public record ActiveRelay(String holder, LocalDateTime until) {
    }

    private final DSLContext dsl;
    private final DatabaseOperations operations;

    public RelayState(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.operations = operations;
    }

    public Counts counts() {
        try {
            var byState = dsl.select(OUTCOME_EVENT.DELIVERY, DSL.count()).from(OUTCOME_EVENT)
                    .groupBy(OUTCOME_EVENT.DELIVERY).fetchMap(OUTCOME_EVENT.DELIVERY, DSL.count());
            return new Counts(byState.getOrDefault(OutcomeEventDelivery.delivered, 0),
                    byState.getOrDefault(OutcomeEventDelivery.waiting, 0), byState.getOrDefault(OutcomeEventDelivery.failed, 0));
        } catch (RuntimeException e) {
            throw FeedMissing.explain(e);
        }
    }

    /**
     * Failed outcomes first, then waiting ones, oldest first; at most {@code limit}. The title is the
     * article's as it is now (the event keeps the external id, which never changes).
     */
    public List<Undelivered> undelivered(int limit) {
        return dsl.select(OUTCOME_EVENT.asterisk(), ARTICLE.TITLE).from(OUTCOME_EVENT)
                .leftJoin(ARTICLE).on(ARTICLE.ID.eq(OUTCOME_EVENT.ARTICLE_ID))
                .where(OUTCOME_EVENT.DELIVERY.ne(OutcomeEventDelivery.delivered))
                .orderBy(OUTCOME_EVENT.DELIVERY.desc(), OUTCOME_EVENT.ID).limit(limit)
                .fetch(x -> {
                    var r = x.into(OUTCOME_EVENT);
                    return new Undelivered(r.getId(), r.getArticleId(), r.getExternalId(), x.get(ARTICLE.TITLE), r.getDeskId(),
                            r.getOutcome(), r.getDelivery().getLiteral(), r.getAttempts(), r.getLastAttemptAt(), r.getLastAnswer(),
                            r.getNextAttemptAt(), r.getDecidedAt());
                });
    }

    /** The relay delivering right now, if one holds an unexpired lease (by the server's clock). */
    public Optional<ActiveRelay> activeRelay() {
        Record r = dsl.select(RELAY_LEASE.HOLDER, RELAY_LEASE.EXPIRES_AT).from(RELAY_LEASE)
                .where(RELAY_LEASE.HOLDER.isNotNull())
                .and(RELAY_LEASE.EXPIRES_AT.gt(ServerClock.now())).fetchOne();
        return Optional.ofNullable(r).map(x -> new ActiveRelay(x.get(RELAY_LEASE.HOLDER), x.get(RELAY_LEASE.EXPIRES_AT)));
    }

    /** Sends a failed outcome again ({@code cursor}), or every failed one ({@code null}). Returns how many. */
    public int retry(Long cursor) {
        return RelayProcedures.explained(() -> operations.fetch(Operation.RELAY_RETRY, null, cursor))
                .get(0).get("retried", Integer.class);
    }
}
