package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.EDITOR;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.db.schema.enums.DeskStageEntered;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.Fixtures;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * A desk with a known pace for the forecast's tests, written as the schema's owner: decisions at
 * known times before the server's now, people seen at known times, articles due at known times,
 * held or on hold. Times are offsets from the server's clock, so the forecast's arithmetic can be
 * checked to the second.
 */
public final class ForecastDesk {

    private final DSLContext dsl;
    private final String desk;

    public ForecastDesk(DSLContext dsl, String desk) {
        this.dsl = dsl;
        this.desk = desk;
    }

    public Instant serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }

    public void stage(String stage, int position, boolean always) {
        dsl.insertInto(DESK_STAGE, DESK_STAGE.DESK_ID, DESK_STAGE.STAGE_ID, DESK_STAGE.POSITION, DESK_STAGE.NAME, DESK_STAGE.ENTERED)
                .values(desk, stage, position, stage, always ? DeskStageEntered.always : DeskStageEntered.when_asked).execute();
    }

    /**
     * {@code count} decisions at {@code stage} (null: a desk without stages), {@code minutesAgo} before now, each on its own
     * article: three statements however many (a simulated desk's pace is thousands an hour).
     */
    public void decisions(String stage, int count, int minutesAgo) {
        List<Long> ids = Fixtures.articles(dsl, desk, count, 5, -7200);
        Condition those = ARTICLE.ID.between(ids.get(0), ids.get(ids.size() - 1)).and(ARTICLE.DESK_ID.eq(desk))
                .and(ARTICLE.PRIORITY.eq(5)).and(ARTICLE.STATUS.eq(ArticleStatus.queued));
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.approved).set(ARTICLE.STAGE_ID, stage).where(those).execute();
        dsl.insertInto(DECISION, DECISION.REQUEST_ID, DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.VERDICT, DECISION.NOTES,
                        DECISION.LEASE_TOKEN, DECISION.DECIDED_AT, DECISION.STAGE_ID)
                .select(DSL.select(DSL.field("UUID()", String.class), ARTICLE.ID, DSL.val("ann"), DSL.val(DecisionVerdict.approve),
                                DSL.val(""), DSL.val(1L), ServerClock.nowPlus(Duration.ofMinutes(-minutesAgo)), DSL.val(stage))
                        .from(ARTICLE).where(ARTICLE.ID.in(ids)))
                .execute();
    }

    /** The person was last heard from {@code secondsAgo} before now (null: never). */
    public void seen(String editor, Integer secondsAgo) {
        dsl.update(EDITOR).set(EDITOR.LAST_SEEN_AT, secondsAgo == null ? null : ServerClock.nowPlus(Duration.ofSeconds(-secondsAgo)))
                .where(EDITOR.ID.eq(editor)).execute();
    }

    /** A waiting article of {@code priority} at {@code stage}, due {@code dueInSeconds} from now (null: none). */
    public long article(int priority, String stage, Integer dueInSeconds) {
        long id = Fixtures.articles(dsl, desk, 1, priority, -600).get(0);
        dsl.update(ARTICLE).set(ARTICLE.STAGE_ID, stage).where(ARTICLE.ID.eq(id)).execute();
        if (dueInSeconds != null) {
            due(id, dueInSeconds);
        }
        return id;
    }

    public void due(long id, int dueInSeconds) {
        var at = ServerClock.nowPlus(Duration.ofSeconds(dueInSeconds));
        dsl.update(ARTICLE).set(ARTICLE.DUE_AT, at.cast(LocalDateTime.class)).set(ARTICLE.DUE_ORDER, at).set(ARTICLE.DUE_WATCH_AT, at)
                .where(ARTICLE.ID.eq(id)).execute();
    }

    public void held(long id, String editor) {
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, editor).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(30)))
                .set(ARTICLE.CLAIMED_AT, ServerClock.now()).set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1)).where(ARTICLE.ID.eq(id))
                .execute();
    }

    public void onHold(long id) {
        dsl.update(ARTICLE).set(ARTICLE.HELD_BY, "sue").set(ARTICLE.HELD_AT, ServerClock.now()).where(ARTICLE.ID.eq(id)).execute();
    }

    public void withWriter(long id) {
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.awaiting_writer).where(ARTICLE.ID.eq(id)).execute();
    }
}
