package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_EVENT;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Results;
import org.jooq.impl.DSL;

/**
 * A desk's deadlines at the current pace (docs/deadlines.md, "The forecast"), as the database's
 * {@code deadline_forecast} computes them for a supervisor: each stage's decisions of the last
 * hour, the people active now who may take it, and for each article due in the window when it will
 * be through at that pace. Every time is the server's, an instant; whoever shows it converts it to
 * the reader's time zone.
 */
public final class DeadlineForecast {

    /** How far ahead a forecast looks unless told otherwise. */
    public static final Duration DEFAULT_WITHIN = Duration.ofHours(4);

    /** Why an article due in the window has no expected time. */
    public enum NotForecast {
        /** A stage it must go through decided nothing in the last hour: no pace to go by. */
        NO_PACE("no_pace"),
        /** A supervisor holds it back from every claim. */
        ON_HOLD("on_hold"),
        /** It waits for the writer's revision: in no queue. */
        WITH_WRITER("with_writer"),
        /** It was set aside as unreviewable or sent back too often. */
        QUARANTINED("quarantined");

        private final String code;

        NotForecast(String code) {
            this.code = code;
        }

        static NotForecast of(String code) {
            if (code == null) {
                return null;
            }
            for (NotForecast n : values()) {
                if (n.code.equals(code)) {
                    return n;
                }
            }
            throw new IllegalStateException("deadline_forecast answered not_forecast = '" + code + "', which this version does not know");
        }
    }

    /** A stage of the desk (stage null on a desk without stages) and its pace. */
    public record StagePace(String stage, String name, boolean always, int perHour, int people, int held) {

        /** False when the stage decided nothing in the last hour. */
        public boolean paced() {
            return perHour > 0;
        }
    }

    /** An article due by the window's end (a late one too) and what the forecast says of it. */
    public record DueArticle(long id, String externalId, String title, int priority, String stage, String status, String heldBy,
                             Instant dueAt, Instant expectedAt, Integer position, boolean late, NotForecast notForecast,
                             boolean told) {

        /** Expected after its due time, which has not passed yet. */
        public boolean atRisk() {
            return !late && expectedAt != null && expectedAt.isAfter(dueAt);
        }

        /** Time left until it is due on the server's clock, against {@code serverNow}; negative once late. */
        public Duration left(Instant serverNow) {
            return Duration.between(serverNow, dueAt);
        }
    }

    /**
     * The forecast: of the {@code due} articles due by {@code dueUntil} (not late yet), {@code atRisk}
     * will miss at the current pace; {@code perHour} is the slowest stage's pace (null: a stage every
     * article goes through has none yet); {@code people} are active now and may take the desk's work.
     */
    public record Forecast(String desk, Instant serverNow, Instant dueUntil, int paceMinutes, int due, int atRisk, int late,
                           int notForecast, int people, Integer perHour, List<StagePace> stages, List<DueArticle> articles) {
    }

    /** A deadline_at_risk the sweep told: the event's number (they only grow), the article and the forecast's words. */
    public record AtRiskTold(long eventId, long articleId, String title, String desk, Instant dueAt, String detail) {
    }

    private final DSLContext dsl;
    private final DatabaseOperations operations;

    DeadlineForecast(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.operations = operations;
    }

    /** The number of the last deadline event told (0: none yet): where to start listening. */
    public long lastEvent() {
        Long last = dsl.select(DSL.max(DEADLINE_EVENT.ID)).from(DEADLINE_EVENT).fetchOne(0, Long.class);
        return last == null ? 0 : last;
    }

    /**
     * The articles the sweep found at risk since event {@code afterEvent} (at most 50, oldest first),
     * still in review with that due time: what the dashboard tells the supervisor of, once.
     */
    public List<AtRiskTold> toldSince(long afterEvent) {
        return dsl.select(DEADLINE_EVENT.ID, DEADLINE_EVENT.ARTICLE_ID, ARTICLE.TITLE, ARTICLE.DESK_ID, DEADLINE_EVENT.DUE_AT,
                        DEADLINE_EVENT.DETAIL)
                .from(DEADLINE_EVENT).join(ARTICLE).on(ARTICLE.ID.eq(DEADLINE_EVENT.ARTICLE_ID))
                .where(DEADLINE_EVENT.ID.gt(afterEvent)).and(DEADLINE_EVENT.KIND.eq("deadline_at_risk"))
                .and(ARTICLE.DUE_AT.eq(DEADLINE_EVENT.DUE_AT)).and(ARTICLE.STATUS.in(DueTimes.IN_REVIEW))
                .orderBy(DEADLINE_EVENT.ID).limit(50)
                .fetch(r -> new AtRiskTold(r.get(DEADLINE_EVENT.ID), r.get(DEADLINE_EVENT.ARTICLE_ID), r.get(ARTICLE.TITLE),
                        r.get(ARTICLE.DESK_ID), DueTimes.instant(r.get(DEADLINE_EVENT.DUE_AT)), r.get(DEADLINE_EVENT.DETAIL)));
    }

    /** The forecast for {@code desk}, looking {@code within} ahead (1 minute to 24 hours). */
    public Forecast of(String desk, Duration within) {
        Results all = operations.fetchMany(Operation.DEADLINE_FORECAST, desk, (int) within.toMinutes());
        List<Result<Record>> results = all.stream().filter(r -> r.fields().length > 0).toList();
        Record s = results.get(0).get(0);
        List<StagePace> stages = results.get(1).map(r -> new StagePace(r.get("stage_id", String.class), r.get("name", String.class),
                DatabaseOperations.flag(Operation.DEADLINE_FORECAST, r, "always"), r.get("per_hour", Integer.class),
                r.get("people", Integer.class), r.get("held", Integer.class)));
        List<DueArticle> articles = results.get(2).map(r -> new DueArticle(r.get("article_id", Long.class),
                r.get("external_id", String.class), r.get("title", String.class), r.get("priority", Integer.class),
                r.get("stage_id", String.class), r.get("status", String.class), r.get("held_by", String.class),
                instant(r, "due_at"), instant(r, "expected_at"), r.get("position", Integer.class),
                DatabaseOperations.flag(Operation.DEADLINE_FORECAST, r, "late"), NotForecast.of(r.get("not_forecast", String.class)),
                DatabaseOperations.flag(Operation.DEADLINE_FORECAST, r, "told")));
        return new Forecast(s.get("desk_id", String.class), instant(s, "server_now"), instant(s, "due_until"),
                s.get("pace_minutes", Integer.class), s.get("due", Integer.class), s.get("at_risk", Integer.class),
                s.get("late", Integer.class), s.get("not_forecast", Integer.class), s.get("people", Integer.class),
                s.get("per_hour", Integer.class), stages, articles);
    }

    private static Instant instant(Record r, String column) {
        return DueTimes.instant(r.get(column, LocalDateTime.class));
    }
}
