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
 * per hour and desk, and each editor's load. Every time is the server's clock (UTC).
 */
public final class QueueStatistics {

    /** One bar segment: {@code count} events on {@code desk} in the hour starting at {@code hour}. */
    public record HourlyCount(String desk, LocalDateTime hour, int count) {
    }

    /** Counts per hour, with the server time they were read at (so empty hours can be drawn too). */
    public record Hourly(LocalDateTime serverNow, List<HourlyCount> counts) {
    }

    /**
     * One person's load. {@code sinceSeen} is how long ago their client last showed them active,
     * by the server's clock; null if never.
     */
    public record EditorLoad(String id, String displayName, Role role, int capacity, int held, int finishedToday,
                             Duration sinceSeen) {
    }

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final DSLContext dsl;

    public QueueStatistics(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Approvals and rejections (finished reviews) per desk and hour over the last {@code window}. */
    public Hourly finishedPerHour(Duration window) {
        Field<String> hour = hourOf(DECISION.DECIDED_AT);
        Field<Integer> count = DSL.count().as("n");
        LocalDateTime now = serverNow();
        List<HourlyCount> counts = dsl.select(ARTICLE.DESK_ID, hour, count)
                .from(DECISION).join(ARTICLE).on(ARTICLE.ID.eq(DECISION.ARTICLE_ID))
                .where(DECISION.DECIDED_AT.ge(ServerClock.plus(DSL.val(now), window.negated())))
                .and(DECISION.VERDICT.in(DecisionVerdict.approve, DecisionVerdict.reject))
                .groupBy(ARTICLE.DESK_ID, hour)
                .orderBy(hour, ARTICLE.DESK_ID)
                .fetch(r -> new HourlyCount(r.get(ARTICLE.DESK_ID), LocalDateTime.parse(r.get(hour), HOUR), r.get(count)));
        return new Hourly(now, counts);
    }

    /**
     * Leases that ran out (freed by the release service or taken over by a claim) per desk and hour
     * over the last {@code window}. The desk is the article's desk now; articles do not change desk
     * while they wait.
     */
    public Hourly expiredPerHour(Duration window) {
        Field<String> hour = hourOf(LEASE_EVENT.OCCURRED_AT);
        Field<Integer> count = DSL.count().as("n");
        LocalDateTime now = serverNow();
        List<HourlyCount> counts = dsl.select(ARTICLE.DESK_ID, hour, count)
                .from(LEASE_EVENT).join(ARTICLE).on(ARTICLE.ID.eq(LEASE_EVENT.ROW_KEY.cast(SQLDataType.BIGINT)))
                .where(LEASE_EVENT.OCCURRED_AT.ge(ServerClock.plus(DSL.val(now), window.negated())))
                .and(LEASE_EVENT.ACTION.eq(HistoryAction.EXPIRE.code()))
                .and(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .groupBy(ARTICLE.DESK_ID, hour)
                .orderBy(hour, ARTICLE.DESK_ID)
                .fetch(r -> new HourlyCount(r.get(ARTICLE.DESK_ID), LocalDateTime.parse(r.get(hour), HOUR), r.get(count)));
        return new Hourly(now, counts);
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
     * The start of the time's hour as text. A plain-SQL template because jOOQ 3.19 renders no
     * hour truncation for MySQL/MariaDB; DATE_FORMAT with these specifiers means the same on both.
     */
    private static Field<String> hourOf(Field<LocalDateTime> time) {
        return DSL.field("date_format({0}, '%Y-%m-%d %H:00:00')", SQLDataType.VARCHAR(19), time).as("hour");
    }
}
