package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_STAGE_REQUEST;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.STAGE_TAKER;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.DeskStageRecord;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * A desk's review chain (docs/workflow.md): reading the stages and where an article is in them,
 * and the admin's and supervisor's changes, each through the database's own operation, which
 * checks the role, keeps the chain whole (a stage holding articles is removed only by saying where
 * they go) and writes the history. Deciding at a stage is {@link ReviewDecisions#submit} with a
 * {@link DecisionRequest} that may name an earlier stage or ask for stages.
 */
public final class ReviewStages {

    /**
     * A stage as an admin sets it up. {@code position}: where a new stage goes (null: at the end;
     * ignored for a stage that exists, see {@link #order}); {@code leaseLength} null: the desk's.
     */
    public record Settings(String desk, String id, String name, Integer position, Duration leaseLength, boolean whenAsked,
                           boolean fourEyes, boolean namedTakers) {
    }

    /** How many articles of each stage the board lists (the counts are of all of them). */
    public static final int BOARD_CARDS = 200;

    private final DSLContext dsl;
    private final DatabaseOperations operations;
    private final String sessionUser;

    ReviewStages(DSLContext dsl, DatabaseOperations operations, String sessionUser) {
        this.dsl = dsl;
        this.operations = operations;
        this.sessionUser = sessionUser;
    }

    /** Over {@code dsl} as its signed-in account, with Copydesk's default retries (tools and tests). */
    public static ReviewStages over(DSLContext dsl) {
        return new ReviewStages(dsl, DatabaseOperations.withDefaultRetries(dsl), null);
    }

    /** Null when the person is the signed-in account; an administrator's tools name them. */
    private String actingFor(String person) {
        return person == null || person.equals(sessionUser) ? null : person;
    }

    /** The desk's chain, first stage first; empty for a desk without stages. */
    public List<Stage> chain(String desk) {
        Map<String, List<String>> takers = dsl.select(STAGE_TAKER.STAGE_ID, STAGE_TAKER.EDITOR_ID).from(STAGE_TAKER)
                .where(STAGE_TAKER.DESK_ID.eq(desk)).orderBy(STAGE_TAKER.EDITOR_ID)
                .fetchGroups(STAGE_TAKER.STAGE_ID, STAGE_TAKER.EDITOR_ID);
        return dsl.selectFrom(DESK_STAGE).where(DESK_STAGE.DESK_ID.eq(desk)).orderBy(DESK_STAGE.POSITION)
                .fetch(r -> toStage(r, takers.getOrDefault(r.getStageId(), List.of())));
    }

    /** Where the article is in its desk's chain, with the decisions made at its stages; empty on a desk without stages. */
    public Optional<ArticleStage> of(long articleId) {
        Record a = dsl.select(ARTICLE.DESK_ID, ARTICLE.STAGE_ID, ARTICLE.PASS).from(ARTICLE).where(ARTICLE.ID.eq(articleId))
                .fetchOne();
        if (a == null || a.get(ARTICLE.STAGE_ID) == null) {
            return Optional.empty();
        }
        List<Stage> chain = chain(a.get(ARTICLE.DESK_ID));
        Map<String, Stage> byId = chain.stream().collect(Collectors.toMap(Stage::id, s -> s));
        Stage here = byId.get(a.get(ARTICLE.STAGE_ID));
        List<String> asked = dsl.select(ARTICLE_STAGE_REQUEST.STAGE_ID).from(ARTICLE_STAGE_REQUEST)
                .where(ARTICLE_STAGE_REQUEST.ARTICLE_ID.eq(articleId)).fetch(ARTICLE_STAGE_REQUEST.STAGE_ID);
        List<ArticleStage.StageNote> earlier = dsl.select(DECISION.STAGE_ID, DECISION.PASS, DECISION.EDITOR_ID, EDITOR.DISPLAY_NAME,
                        DECISION.VERDICT, DECISION.DECIDED_AT, DECISION.NOTES)
                .from(DECISION).leftJoin(EDITOR).on(EDITOR.ID.eq(DECISION.EDITOR_ID))
                .where(DECISION.ARTICLE_ID.eq(articleId).and(DECISION.STAGE_ID.isNotNull()))
                .orderBy(DECISION.DECIDED_AT, DECISION.ID)
                .fetch(r -> new ArticleStage.StageNote(r.get(DECISION.STAGE_ID),
                        byId.containsKey(r.get(DECISION.STAGE_ID)) ? byId.get(r.get(DECISION.STAGE_ID)).name() : r.get(DECISION.STAGE_ID),
                        r.get(DECISION.PASS) == null ? 1 : r.get(DECISION.PASS), r.get(DECISION.EDITOR_ID),
                        r.get(EDITOR.DISPLAY_NAME) == null ? r.get(DECISION.EDITOR_ID) : r.get(EDITOR.DISPLAY_NAME),
                        Verdict.fromCode(r.get(DECISION.VERDICT).getLiteral()), r.get(DECISION.DECIDED_AT), r.get(DECISION.NOTES)));
        return Optional.of(new ArticleStage(articleId, a.get(ARTICLE.DESK_ID), a.get(ARTICLE.STAGE_ID),
                here == null ? a.get(ARTICLE.STAGE_ID) : here.name(), here == null ? 0 : here.position(), chain.size(),
                a.get(ARTICLE.PASS), asked, earlier));
    }

    /**
     * The desk's stage board (a supervisor's): per stage of its chain, first first, the counts and the
     * articles in review there, each stage's in claim order. No columns for a desk without stages.
     */
    public StageBoard board(String desk) {
        List<Stage> chain = chain(desk);
        LocalDateTime now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        if (chain.isEmpty()) {
            return new StageBoard(desk, now, List.of());
        }
        Field<LocalDateTime> at = DSL.val(now);
        Condition inReview = ARTICLE.LOCKED_BY.isNotNull().and(ARTICLE.EXPIRES_AT.gt(at));
        Condition waiting = inReview.not().and(ARTICLE.HELD_AT.isNull()).and(ARTICLE.AVAILABLE_AT.le(at));
        Condition queued = ARTICLE.STATUS.eq(ArticleStatus.queued);
        Condition atStages = ARTICLE.DESK_ID.eq(desk).and(queued).and(ARTICLE.STAGE_ID.isNotNull());
        Field<Integer> waitingCount = DSL.count().filterWhere(queued.and(waiting)).as("waiting");
        Field<Integer> reviewCount = DSL.count().filterWhere(queued.and(inReview)).as("in_review");
        Field<Integer> holding = DSL.count().as("holding");
        Field<LocalDateTime> oldest = DSL.min(ARTICLE.AVAILABLE_AT).filterWhere(queued.and(waiting)).as("oldest");
        // what remove_desk_stage counts as in review at a stage: waiting, held, with the writer or in quarantine
        var counts = dsl.select(ARTICLE.STAGE_ID, waitingCount, reviewCount, holding, oldest).from(ARTICLE)
                .where(ARTICLE.DESK_ID.eq(desk).and(ARTICLE.STAGE_ID.isNotNull())
                        .and(ARTICLE.STATUS.in(ArticleStatus.queued, ArticleStatus.awaiting_writer, ArticleStatus.quarantined)))
                .groupBy(ARTICLE.STAGE_ID).fetchMap(ARTICLE.STAGE_ID);
        Field<Integer> rank = DSL.rowNumber().over(DSL.partitionBy(ARTICLE.STAGE_ID)
                .orderBy(ARTICLE.PRIORITY, ARTICLE.QUEUE_LANE, ARTICLE.AVAILABLE_AT, ARTICLE.ID)).as("stage_rank");
        Field<String> reviewer = DSL.when(inReview, ARTICLE.LOCKED_BY).as("reviewer");
        var listed = dsl.select(ARTICLE.ID, ARTICLE.TITLE, ARTICLE.PRIORITY, ARTICLE.STAGE_ID, reviewer, ARTICLE.HELD_BY,
                        ARTICLE.AVAILABLE_AT, ARTICLE.PASS, rank)
                .from(ARTICLE).where(atStages).asTable("listed");
        Map<String, List<StageBoard.Card>> cards = dsl.selectFrom(listed)
                .where(listed.field(rank).le(BOARD_CARDS))
                .orderBy(listed.field(ARTICLE.STAGE_ID), listed.field(rank))
                .fetchGroups(r -> r.get(ARTICLE.STAGE_ID.getName(), String.class), r -> new StageBoard.Card(
                        r.get(ARTICLE.ID.getName(), Long.class), r.get(ARTICLE.TITLE.getName(), String.class),
                        r.get(ARTICLE.PRIORITY.getName(), Integer.class), r.get(ARTICLE.STAGE_ID.getName(), String.class),
                        r.get(reviewer.getName(), String.class), r.get(ARTICLE.HELD_BY.getName(), String.class),
                        r.get(ARTICLE.AVAILABLE_AT.getName(), LocalDateTime.class), r.get(ARTICLE.PASS.getName(), Integer.class)));
        return new StageBoard(desk, now, chain.stream().map(s -> {
            Record c = counts.get(s.id());
            return new StageBoard.Column(s, c == null ? 0 : c.get(waitingCount), c == null ? 0 : c.get(reviewCount),
                    c == null ? null : c.get(oldest), c == null ? 0 : c.get(holding), cards.getOrDefault(s.id(), List.of()));
        }).toList());
    }

    /** Adds a stage to its desk's chain or changes it (an admin). Returns the chain afterwards. */
    public List<Stage> set(String admin, Settings s) {
        operations.fetch(Operation.SET_DESK_STAGE, actingFor(admin), s.desk(), s.id(), s.name(), s.position(),
                s.leaseLength() == null ? null : (int) s.leaseLength().toSeconds(), s.whenAsked() ? "when_asked" : "always",
                s.fourEyes() ? 1 : 0, s.namedTakers() ? "named" : "desk");
        return chain(s.desk());
    }

    /** Puts the desk's chain in this order (every stage once, first first; an admin). */
    public List<Stage> order(String admin, String desk, List<String> stages) {
        operations.fetch(Operation.ORDER_DESK_STAGES, actingFor(admin), desk, String.join(",", stages));
        return chain(desk);
    }

    /**
     * Removes a stage (an admin). Articles in review at it go to {@code moveTo}, another stage of the
     * desk; null only when none are there, or for the desk's last stage (it becomes a desk without stages).
     */
    public List<Stage> remove(String admin, String desk, String stage, String moveTo) {
        operations.fetch(Operation.REMOVE_DESK_STAGE, actingFor(admin), desk, stage, moveTo);
        return chain(desk);
    }

    /** Names who takes a stage whose takers are named (replacing the list; an admin). */
    public void setTakers(String admin, String desk, String stage, List<String> editors) {
        operations.fetch(Operation.SET_STAGE_TAKERS, actingFor(admin), desk, stage, String.join(",", editors));
    }

    /** Moves an unheld article in review to another stage of its desk, with a reason (a supervisor). */
    public void moveTo(String supervisor, long articleId, String stage, String reason) {
        operations.fetch(Operation.MOVE_TO_STAGE, actingFor(supervisor), articleId, stage, reason);
    }

    private static Stage toStage(DeskStageRecord r, List<String> takers) {
        return new Stage(r.getDeskId(), r.getStageId(), r.getPosition(), r.getName(),
                r.getLeaseSeconds() == null ? null : Duration.ofSeconds(r.getLeaseSeconds()),
                "when_asked".equals(r.getEntered().getLiteral()), r.getFourEyes() == 1, "named".equals(r.getTakers().getLiteral()),
                takers);
    }
}
