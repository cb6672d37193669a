package org.copydesk.review.outcomes;

import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.time.Duration;
import org.copydesk.AllowedBecause;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.Phrase;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * How long the outbox keeps outcomes. An outcome the relay delivered is kept for the feed's readers
 * and the audit until it is older than the age given; one still waiting or failed is the outbox's
 * promise to deliver and stays, unless the newsroom has no relay (its systems pull
 * {@code copydesk feed}, so nothing is ever marked delivered). The feed's cursor only grows, so a
 * reader's cursor stays valid after a purge: it simply finds nothing older.
 */
public final class OutcomeRetention {

    /** Which outcomes a purge may remove, besides their age. */
    public enum Scope {
        /** Only outcomes the relay delivered. */
        DELIVERED,
        /** Every outcome, whatever its delivery state: for newsrooms that only pull the feed. */
        EVERY_OUTCOME
    }

    private static final int CHUNK = 5000;

    private final DSLContext dsl;

    public OutcomeRetention(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Removes outcomes decided before {@code age} ago (server clock), in chunks; returns how many. */
    @AllowedBecause("an administrator's purge of old outcomes (copydesk purge); no person's role may delete outcomes")
    public long purgeOlderThan(Duration age, Scope scope) {
        if (age.isNegative() || age.isZero()) {
            throw new IllegalArgumentException(Phrase.of("review.purge.agePositive").text());
        }
        Condition old = OUTCOME_EVENT.DECIDED_AT.lt(ServerClock.plus(ServerClock.now(), age.negated()));
        Condition removable = scope == Scope.DELIVERED ? old.and(OUTCOME_EVENT.DELIVERY.eq(OutcomeEventDelivery.delivered)) : old;
        long total = 0;
        int deleted;
        do {
            deleted = dsl.deleteFrom(OUTCOME_EVENT).where(removable).orderBy(OUTCOME_EVENT.ID).limit(CHUNK).execute();
            total += deleted;
        } while (deleted == CHUNK);
        return total;
    }
}
