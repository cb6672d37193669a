package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Articles sent back for changes that wait for their writer's revision (status
 * {@code awaiting_writer}, since the send-back's time), for supervisors: per desk how many and
 * since when, and those that have waited longer than a newsroom's patience ("overdue"), to chase.
 * Read-only; times are the server's.
 */
public final class WaitingForWriters {

    /** One desk: how many wait for writers, since when the oldest, how many longer than the limit asked. */
    public record DeskWait(String desk, String name, int waiting, LocalDateTime oldestSince, int overdue) {
    }

    /** An article waiting longer than the limit: who sent it back, when, and why. */
    public record Overdue(long articleId, String externalId, String title, String desk, String sentBackBy,
                          LocalDateTime since, String notes) {
    }

    private final DSLContext dsl;

    public WaitingForWriters(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Every desk with articles waiting for writers, by desk name. */
    public List<DeskWait> perDesk(Duration overdueAfter) {
        requirePositive(overdueAfter);
        Field<Integer> overdue = DSL.count().filterWhere(overdue(overdueAfter));
        Field<LocalDateTime> oldest = DSL.min(ARTICLE.DECIDED_AT);
        return dsl.select(DESK.ID, DESK.NAME, DSL.count(), oldest, overdue)
                .from(ARTICLE).join(DESK).on(DESK.ID.eq(ARTICLE.DESK_ID))
                .where(ARTICLE.STATUS.eq(ArticleStatus.awaiting_writer))
                .groupBy(DESK.ID, DESK.NAME)
                .orderBy(DESK.NAME)
                .fetch(r -> new DeskWait(r.get(DESK.ID), r.get(DESK.NAME), r.get(DSL.count()), r.get(oldest), r.get(overdue)));
    }

    /** The articles waiting longer than {@code overdueAfter}, longest first (at most {@code limit}). */
    public List<Overdue> overdue(Duration overdueAfter, int limit) {
        requirePositive(overdueAfter);
        return dsl.select(ARTICLE.ID, ARTICLE.EXTERNAL_ID, ARTICLE.TITLE, ARTICLE.DESK_ID, ARTICLE.DECIDED_BY,
                        ARTICLE.DECIDED_AT, ARTICLE.DECISION_NOTE)
                .from(ARTICLE)
                .where(ARTICLE.STATUS.eq(ArticleStatus.awaiting_writer)).and(overdue(overdueAfter))
                .orderBy(ARTICLE.DECIDED_AT, ARTICLE.ID)
                .limit(limit)
                .fetch(r -> new Overdue(r.get(ARTICLE.ID), r.get(ARTICLE.EXTERNAL_ID), r.get(ARTICLE.TITLE),
                        r.get(ARTICLE.DESK_ID), r.get(ARTICLE.DECIDED_BY), r.get(ARTICLE.DECIDED_AT),
                        r.get(ARTICLE.DECISION_NOTE)));
    }

    private static Condition overdue(Duration overdueAfter) {
        return ARTICLE.DECIDED_AT.le(ServerClock.nowPlus(overdueAfter.negated()));
    }

    private static void requirePositive(Duration overdueAfter) {
        if (overdueAfter == null || overdueAfter.isNegative() || overdueAfter.isZero()) {
            throw new IllegalArgumentException(Phrase.of("review.waiting.overduePositive").text());
        }
    }
}
