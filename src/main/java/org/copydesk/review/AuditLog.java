package org.copydesk.review;

import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** The event log searched the way a supervisor asks: by editor, article, action and time. */
public final class AuditLog {

    /**
     * What to look for; null (or blank) means "any".
     *
     * @param editor  matches the actor, the previous holder or the new holder
     * @param within  only events in this span before the server's now
     * @param limit   at most this many, newest first
     */
    public record Query(String editor, Long articleId, String action, Duration within, int limit) {

        public static Query recent(int limit) {
            return new Query(null, null, null, null, limit);
        }
    }

    /** One event. {@code articleId} is null for events on other resources. */
    public record Entry(long id, LocalDateTime at, Long articleId, String action, String actor, String oldOwner,
                        String newOwner, String detail) {
    }

    /** The actions the log holds, as the database writes them. */
    public static final List<String> ACTIONS = Arrays.stream(HistoryAction.values()).map(HistoryAction::code).toList();

    private final DSLContext dsl;

    public AuditLog(DSLContext dsl) {
        this.dsl = dsl;
    }

    public List<Entry> search(Query q) {
        Condition where = LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE);
        if (q.editor() != null && !q.editor().isBlank()) {
            String e = q.editor().strip();
            where = where.and(LEASE_EVENT.ACTOR.eq(e).or(LEASE_EVENT.OLD_OWNER.eq(e)).or(LEASE_EVENT.NEW_OWNER.eq(e)));
        }
        if (q.articleId() != null) {
            where = where.and(LEASE_EVENT.ROW_KEY.eq(Long.toString(q.articleId())));
        }
        if (q.action() != null && !q.action().isBlank()) {
            where = where.and(LEASE_EVENT.ACTION.eq(q.action()));
        }
        if (q.within() != null) {
            where = where.and(LEASE_EVENT.OCCURRED_AT.ge(ServerClock.plus(ServerClock.now(), q.within().negated())));
        }
        return dsl.selectFrom(LEASE_EVENT).where(where)
                .orderBy(LEASE_EVENT.ID.desc())
                .limit(DSL.inline(Math.max(1, Math.min(q.limit(), 10_000))))
                .fetch(r -> new Entry(r.getId(), r.getOccurredAt(), articleId(r.getRowKey()), r.getAction(), r.getActor(),
                        r.getOldOwner(), r.getNewOwner(), r.getDetail()));
    }

    private static Long articleId(String rowKey) {
        return rowKey != null && !rowKey.isEmpty() && rowKey.chars().allMatch(Character::isDigit) ? Long.valueOf(rowKey) : null;
    }
}
