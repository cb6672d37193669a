package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_STAGE_REQUEST;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attacks on a desk's review chain from editors' own database accounts, with raw SQL as a SQL
 * client would type it (docs/workflow.md, "What the database enforces"). The news desk is Copy edit
 * (the desk's editors) → Legal (entered when asked; Lee only) → Sign-off (four eyes). Ann, a news
 * editor, can neither take nor decide Legal's work, skip a stage, move an article between stages,
 * change the chain, nor sign off what she copy-edited, whatever her session sets; each attack has
 * its control first: the honest path, or the same attempt with the defence switched off by the
 * owner, goes through.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StageSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(StageSecurityTest.class);
    private static final String ANN = "stg_ann";
    private static final String ANN_SECRET = "ann-stage-secret-1";
    private static final String LEE = "stg_lee";
    private static final String LEE_SECRET = "lee-stage-secret-1";

    private final DSLContext root;
    private final Attacks attacks;
    private final ReviewProcedures owner;

    StageSecurityTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.owner = new ReviewProcedures(DatabaseOperations.withDefaultRetries(root), ClaimStrategyKind.SKIP_LOCKED);
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor("stg_bob", "Bob", Role.EDITOR, 5, List.of("news"));
        n.addEditor(LEE, "Lee", Role.EDITOR, 5, List.of());
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount(ANN, ANN_SECRET.toCharArray());
        accounts.createAccount(LEE, LEE_SECRET.toCharArray());
        StageChainContractTest.threeStageNewsDesk(ReviewStages.over(root), LEE);
    }

    @AfterAll
    void close() {
        attacks.log(log, "editors at a desk's stages");
        AccountAdministration accounts = new AccountAdministration(root);
        List.of(ANN, LEE).forEach(accounts::dropAccount);
    }

    @BeforeEach
    void emptyDesk() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        root.deleteFrom(DECISION).execute();
        Fixtures.clear(root);
        root.update(DESK_STAGE).set(DESK_STAGE.FOUR_EYES, 1).where(DESK_STAGE.STAGE_ID.eq("signoff")).execute();
    }

    private String ann(String... statements) {
        return attacks.runs(ANN, ANN_SECRET, statements);
    }

    private String lee(String... statements) {
        return attacks.runs(LEE, LEE_SECRET, statements);
    }

    private long token(long id) {
        return root.fetchValue(ARTICLE.LEASE_TOKEN, ARTICLE.ID.eq(id));
    }

    private static String decide(long id, long token, String verdict, String notes, String to, String ask) {
        return "CALL decide_at_stage(NULL, " + id + ", " + token + ", '" + UUID.randomUUID() + "', '" + verdict + "', '" + notes + "', "
                + (to == null ? "NULL" : "'" + to + "'") + ", " + (ask == null ? "NULL" : "'" + ask + "'") + ")";
    }

    /** An article waiting at Legal (Ann approved it at Copy edit and asked for Legal). */
    private long atLegal() {
        long id = Fixtures.articles(root, "news", 1, 3, -60).get(0);
        ann("CALL claim_articles(NULL, NULL, 1, NULL, 'SKIP_LOCKED')");
        ann(decide(id, token(id), "approve", "", null, "legal"));
        assertThat(root.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(id))).isEqualTo("legal");
        return id;
    }

    /** The owner hands the article to the editor under a new lease, as if the claim had not checked (the defence behind it). */
    private long leaseBypassingTheClaim(long id, String editor) {
        root.update(ARTICLE).set(ARTICLE.LOCKED_BY, editor).set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1))
                .set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofMinutes(10))).where(ARTICLE.ID.eq(id)).execute();
        return token(id);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anEditorCannotTakeAStageThatIsNotHersWhateverHerSessionSets(ClaimStrategyKind strategy) {
        long legal = atLegal();
        String claim = "CALL claim_articles(NULL, NULL, NULL, NULL, '" + strategy + "')";
        ann("SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 86400", "SET time_zone = '+13:00'", "SET SESSION sql_mode = ''",
                "SET foreign_key_checks = 0", claim, "CALL claim_articles(NULL, 'news/legal', NULL, NULL, '" + strategy + "')");
        assertThat(root.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(legal))).as("Ann's claims pass over Legal's work").isNull();
        attacks.noEffect("claim Legal's work as a news editor (" + strategy + ")", "nothing handed out at Legal");
        // control: Lee, Legal's taker, is handed it by the same call
        lee(claim);
        assertThat(root.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(legal))).isEqualTo(LEE);
    }

    @Test
    void anEditorCannotDecideAStageThatIsNotHers() {
        long control = atLegal();
        long legal = atLegal();
        // control: Lee holds one under a lease the owner gave him and decides it
        lee(decide(control, leaseBypassingTheClaim(control, LEE), "approve", "", null, null));
        assertThat(root.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(control))).isEqualTo("signoff");

        Attacks.Snapshot before = attacks.snapshot();
        String answer = ann(decide(legal, token(legal), "approve", "", null, null));
        assertThat(answer).isEqualTo("lost");
        attacks.unchangedSince(before, "decide Legal's work with its token but no lease");
        attacks.noEffect("decide Legal's work with its token but no lease", answer);

        long token = leaseBypassingTheClaim(legal, ANN);
        attacks.refused("decide Legal's work under a lease the claim would not give", () -> ann(decide(legal, token, "approve", "", null,
                null)));
        attacks.refused("act for Lee", () -> ann("CALL decide_at_stage('" + LEE + "', " + legal + ", " + token
                + ", '" + UUID.randomUUID() + "', 'approve', '', NULL, NULL)"));
        root.update(ARTICLE).set(ARTICLE.LOCKED_BY, (String) null).set(ARTICLE.EXPIRES_AT, (java.time.LocalDateTime) null)
                .where(ARTICLE.ID.eq(legal)).execute();
        attacks.refused("a supervisor gives Legal's work to Ann", () -> new Supervision(root, owner, new Newsroom(root), null)
                .reassign(legal, ANN, null, new Supervision.Give(true, true, "short of lawyers")));
    }

    @Test
    void anEditorCannotSkipAStageNorMoveAnArticleBetweenStagesNorChangeTheChain() {
        long id = Fixtures.articles(root, "news", 1, 3, -60).get(0);
        ann("CALL claim_articles(NULL, NULL, 1, NULL, 'SKIP_LOCKED')");
        long token = token(id);
        attacks.refused("UPDATE the stage", () -> ann("UPDATE article SET stage_id = 'signoff' WHERE id = " + id));
        attacks.refused("approve straight to Sign-off", () -> ann(decide(id, token, "approve", "", "signoff", null)));
        attacks.refused("send back forward", () -> ann(decide(id, token, "send_back", "on", "signoff", null)));
        attacks.refused("ask for an always stage", () -> ann(decide(id, token, "approve", "", null, "signoff")));
        attacks.refused("ask for a stage of no desk", () -> ann(decide(id, token, "approve", "", null, "legal,nowhere")));
        attacks.refused("move it as a supervisor", () -> ann("CALL move_to_stage(NULL, " + id + ", 'signoff', 'done')"));
        attacks.refused("call the internal step", () -> ann("CALL stage_step('" + ANN + "', " + id
                + ", 'news', 'copy', 'approve', NULL, NULL, NOW(6), @to, @eyes)"));
        attacks.refused("forge a stage request", () -> ann("INSERT INTO article_stage_request VALUES (" + id + ", 'legal', 'x', NOW(6))"));
        attacks.refused("add a stage", () -> ann("CALL set_desk_stage(NULL, 'news', 'skip', 'Skip', 1, NULL, 'always', 0, 'desk')"));
        attacks.refused("remove Legal", () -> ann("CALL remove_desk_stage(NULL, 'news', 'legal', 'signoff')"));
        attacks.refused("reorder the chain", () -> ann("CALL order_desk_stages(NULL, 'news', 'signoff,legal,copy')"));
        attacks.refused("name herself at Legal", () -> ann("CALL set_stage_takers(NULL, 'news', 'legal', '" + ANN + "')"));
        attacks.refused("switch four eyes off", () -> ann("UPDATE desk_stage SET four_eyes = 0"));
        attacks.refused("name herself at Legal by INSERT", () -> ann("INSERT INTO stage_taker VALUES ('news', 'legal', '" + ANN + "')"));
        assertThat(root.fetchCount(ARTICLE_STAGE_REQUEST)).isZero();
        // control: her approval moves it on, to the next stage it enters (Legal was not asked for)
        ann(decide(id, token, "approve", "", null, null));
        assertThat(root.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(id))).isEqualTo("signoff");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anEditorCannotSignOffWhatSheCopyEdited(ClaimStrategyKind strategy) {
        List<Long> ids = Fixtures.articles(root, "news", 3, 3, -60);
        long control = ids.get(0);
        long hers = ids.get(1);
        long bobs = ids.get(2);
        ann("CALL claim_articles(NULL, NULL, 2, NULL, 'SKIP_LOCKED')");
        owner.decide("stg_bob", owner.claim("stg_bob", null, 1, null).held().get(0).lease(), UUID.randomUUID(), Verdict.APPROVE, "");
        ann(decide(control, token(control), "approve", "", null, null), decide(hers, token(hers), "approve", "", null, null));
        assertThat(root.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(bobs))).isEqualTo("signoff");

        // her claim at Sign-off takes what Bob copy-edited, never her own two
        ann("SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 86400", "SET time_zone = '+13:00'",
                "CALL claim_articles(NULL, NULL, NULL, NULL, '" + strategy + "')");
        assertThat(root.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq(ANN)).fetch(ARTICLE.ID)).containsExactly(bobs);
        attacks.noEffect("claim at Sign-off what she copy-edited (" + strategy + ")", "passed over");

        // control: with four eyes off (the defence off), the approval of her own copy edit goes through
        root.update(DESK_STAGE).set(DESK_STAGE.FOUR_EYES, 0).where(DESK_STAGE.STAGE_ID.eq("signoff")).execute();
        ann(decide(control, leaseBypassingTheClaim(control, ANN), "approve", "", null, null));
        assertThat(root.fetchValue(ARTICLE.DECIDED_BY, ARTICLE.ID.eq(control))).isEqualTo(ANN);
        root.update(DESK_STAGE).set(DESK_STAGE.FOUR_EYES, 1).where(DESK_STAGE.STAGE_ID.eq("signoff")).execute();

        long token = leaseBypassingTheClaim(hers, ANN);
        String words = attacks.refused("sign off her own copy edit under a lease the claim would not give",
                () -> ann(decide(hers, token, "approve", "", null, null)));
        assertThat(words).contains("four eyes");
        root.update(ARTICLE).set(ARTICLE.LOCKED_BY, (String) null).set(ARTICLE.EXPIRES_AT, (java.time.LocalDateTime) null)
                .where(ARTICLE.ID.eq(hers)).execute();
        attacks.refused("a supervisor gives her own copy edit to her to sign off", () -> new Supervision(root, owner, new Newsroom(root),
                null).reassign(hers, ANN, null, new Supervision.Give(true, true, "she is free")));
    }
}
