package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Numbers for the supervisor's charts and editor list: reviews finished and leases that ran out,
 * per quarter of an hour and desk, and each editor's load. Every time is the server's clock (UTC).
 *
 * <p>Counts come in quarter hours, not hours, because the hours a supervisor reads are their own:
 * in Kolkata (+05:30) or Kathmandu (+05:45) a local hour starts at half or a quarter past a UTC
 * hour, and every time zone's offset is a whole number of quarter hours. The dashboard adds the
 * quarters up into the hours of its own clock.
 */
public final class QueueStatistics {

    /** {@code count} events on {@code desk} in the quarter hour starting at {@code from} (UTC). */
    public record QuarterCount(String desk, LocalDateTime from, int count) {
    }

    /** Counts per quarter hour, with the server time they were read at (so empty hours can be drawn too). */
    public record Quarterly(LocalDateTime serverNow, List<QuarterCount> counts) {
    }

    /**
     * One person's load. {@code sinceSeen} is how long ago their client last showed them active,
     * by the server's clock; null if never.
     */
    public record EditorLoad(String id, String displayName, Role role, int capacity, int held, int finishedToday,
                             Duration sinceSeen) {
    }

    private static final DateTimeFormatter QUARTER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final DSLContext dsl;

    public QueueStatistics(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Approvals and rejections (finished reviews) per desk and quarter hour over the last {@code window}. */
    public Quarterly finishedPerQuarter(Duration window) {
        Field<String> quarter = quarterOf(DECISION.DECIDED_AT);
        Field<Integer> count = DSL.count().as("n");
        LocalDateTime now = serverNow();
        List<QuarterCount> counts = dsl.select(ARTICLE.DESK_ID, quarter, count)
                .from(DECISION).join(ARTICLE).on(ARTICLE.ID.eq(DECISION.ARTICLE_ID))
                .where(DECISION.DECIDED_AT.ge(ServerClock.plus(DSL.val(now), window.negated())))
                .and(DECISION.VERDICT.in(DecisionVerdict.approve, DecisionVerdict.reject))
                .groupBy(ARTICLE.DESK_ID, quarter)
                .orderBy(quarter, ARTICLE.DESK_ID)
                .fetch(r -> new QuarterCount(r.get(ARTICLE.DESK_ID), LocalDateTime.parse(r.get(quarter), QUARTER), r.get(count)));
        return new Quarterly(now, counts);
    }

    /**
     * Leases that ran out (freed by the release service or taken over by a claim) per desk and
     * quarter hour over the last {@code window}. The desk is the article's desk now; articles do not
     * change desk while they wait.
     */
    public Quarterly expiredPerQuarter(Duration window) {
        Field<String> quarter = quarterOf(LEASE_EVENT.OCCURRED_AT);
        Field<Integer> count = DSL.count().as("n");
        LocalDateTime now = serverNow();
        List<QuarterCount> counts = dsl.select(ARTICLE.DESK_ID, quarter, count)
                .from(LEASE_EVENT).join(ARTICLE).on(ARTICLE.ID.eq(LEASE_EVENT.ROW_KEY.cast(SQLDataType.BIGINT)))
                .where(LEASE_EVENT.OCCURRED_AT.ge(ServerClock.plus(DSL.val(now), window.negated())))
                .and(LEASE_EVENT.ACTION.eq(HistoryAction.EXPIRE.code()))
                .and(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .groupBy(ARTICLE.DESK_ID, quarter)
                .orderBy(quarter, ARTICLE.DESK_ID)
                .fetch(r -> new QuarterCount(r.get(ARTICLE.DESK_ID), LocalDateTime.parse(r.get(quarter), QUARTER), r.get(count)));
        return new Quarterly(now, counts);
    }

    /** Everyone, with the leases they hold now and the reviews they finished today (server date). */
    public List<EditorLoad> editorLoad() {
        Map<String, Integer> held = dsl.select(ARTICLE.LOCKED_BY, DSL.count()).from(ARTICLE)
                .where(ARTICLE.LOCKED_BY.isNotNull()).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now()))
                .groupBy(ARTICLE.LOCKED_BY).fetchMap(ARTICLE.LOCKED_BY, DSL.count());
        Map<String, Integer> finished = dsl.select(DECISION.EDITOR_ID, DSL.count()).from(DECISION)
                .where(DECISION.DECIDED_AT.ge(ServerClock.startOfToday()))
                .and(DECISION.VERDICT.in(DecisionVerdict.approve, DecisionVerdict.reject))
                .groupBy(DECISION.EDITOR_ID).fetchMap(DECISION.EDITOR_ID, DSL.count());
        Field<LocalDateTime> now = ServerClock.now().as("server_now");
        return dsl.select(EDITOR.ID, EDITOR.DISPLAY_NAME, EDITOR.ROLE, EDITOR.CAPACITY, EDITOR.LAST_SEEN_AT, now)
                .from(EDITOR).orderBy(EDITOR.DISPLAY_NAME)
                .fetch(r -> new EditorLoad(r.get(EDITOR.ID), r.get(EDITOR.DISPLAY_NAME), Role.of(r.get(EDITOR.ROLE)),
                        r.get(EDITOR.CAPACITY), held.getOrDefault(r.get(EDITOR.ID), 0),
                        finished.getOrDefault(r.get(EDITOR.ID), 0),
                        r.get(EDITOR.LAST_SEEN_AT) == null ? null : Duration.between(r.get(EDITOR.LAST_SEEN_AT), r.get(now))));
    }

    private LocalDateTime serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
    }

    /**
     * The start of the time's quarter hour as text ({@code 2026-11-23 09:45:00}). A plain-SQL
     * template because jOOQ 3.19 renders no time truncation for MySQL/MariaDB; these functions mean
     * the same on both.
     */
    private static Field<String> quarterOf(Field<LocalDateTime> time) {
        return DSL.field("concat(date_format({0}, '%Y-%m-%d %H:'), lpad(floor(minute({0}) / 15) * 15, 2, '0'), ':00')",
                SQLDataType.VARCHAR(19), time).as("quarter");
    }
}
