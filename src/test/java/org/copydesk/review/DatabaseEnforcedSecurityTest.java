package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimRequest;
import org.copydesk.lease.Lease;
import org.copydesk.lease.Owner;
import org.copydesk.lease.RowKey;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs in as editors and a supervisor with their own database accounts and tries, with raw SQL
 * and through the app's services, everything an editor must not be able to do. Every attempt must
 * fail and change nothing; the supervisor's legitimate actions must succeed.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseEnforcedSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(DatabaseEnforcedSecurityTest.class);

    private final TestDatabase db;
    private final DSLContext root;
    private final List<String> attempts = new ArrayList<>();
    private Database annDb;
    private Database bobDb;
    private Database sueDb;
    private ReviewServices ann;
    private ReviewServices bob;
    private ReviewServices sue;

    DatabaseEnforcedSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("legal", "Legal", Duration.ofMinutes(30));
        n.addEditor("sec_ann", "Ann", Role.EDITOR, 2, List.of("news"));
        n.addEditor("sec_bob", "Bob", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sec_sue", "Sue", Role.SUPERVISOR, 5, List.of("news", "legal"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount("sec_ann", Role.EDITOR, "ann-secret-1".toCharArray());
        accounts.createAccount("sec_bob", Role.EDITOR, "bob-secret-1".toCharArray());
        accounts.createAccount("sec_sue", Role.SUPERVISOR, "sue-secret-1".toCharArray());
        annDb = signIn("sec_ann", "ann-secret-1");
        bobDb = signIn("sec_bob", "bob-secret-1");
        sueDb = signIn("sec_sue", "sue-secret-1");
        ann = new ReviewServices(annDb, ReviewServices.Options.defaults());
        bob = new ReviewServices(bobDb, ReviewServices.Options.defaults());
        sue = new ReviewServices(sueDb, ReviewServices.Options.defaults());
    }

    private Database signIn(String user, String password) {
        return Database.open(db.endpoint().accountUrl(db.name()),
                user, password.toCharArray(), null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
    }

    @AfterAll
    void close() {
        log.info("Refused attempts by an editor ({}):\n  {}", attempts.size(), String.join("\n  ", attempts));
        annDb.close();
        bobDb.close();
        sueDb.close();
        AccountAdministration accounts = new AccountAdministration(root);
        List.of("sec_ann", "sec_bob", "sec_sue").forEach(accounts::dropAccount);
    }

    @BeforeEach
    void articles() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        root.deleteFrom(DECISION).execute();
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
        Fixtures.articles(root, "legal", 2, 3, -60);
    }

    /** Runs an attempt that must be refused by the server, and checks it changed nothing. */
    private void refused(String what, Runnable attempt) {
        Result<Record> articlesBefore = root.select(ARTICLE.fields()).from(ARTICLE).orderBy(ARTICLE.ID).fetch();
        int eventsBefore = root.fetchCount(LEASE_EVENT);
        int draftsBefore = root.fetchCount(REVIEW_DRAFT);
        Throwable failure = null;
        try {
            attempt.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).as(what + " must be refused").isNotNull();
        String reason = rootMessage(failure);
        assertThat(reason).as(what).containsAnyOf("Copydesk:", "denied", "command denied");
        assertThat(root.select(ARTICLE.fields()).from(ARTICLE).orderBy(ARTICLE.ID).fetch()).as(what + " changed articles")
                .isEqualTo(articlesBefore);
        assertThat(root.fetchCount(LEASE_EVENT)).as(what + " changed history").isEqualTo(eventsBefore);
        assertThat(root.fetchCount(REVIEW_DRAFT)).as(what + " changed drafts").isEqualTo(draftsBefore);
        attempts.add(what + " -> refused: " + reason);
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage();
    }

    private ClaimRequest claimAs(Owner owner, String desk, int limit) {
        return new ClaimRequest(owner, ARTICLE.DESK_ID.eq(desk).and(ARTICLE.STATUS.eq(ArticleStatus.queued)),
                ArticleLeases.ORDER, limit, Duration.ofMinutes(30));
    }

    @Test
    void theLeaseOwnerIsTheSignedInAccountNotWhatTheClientSays() {
        Assignment a = ann.queue().claim("sec_ann");
        assertThat(a.articles()).hasSize(2).allMatch(h -> h.lease().owner().equals("sec_ann"));
        assertThat(ann.sessionUser()).isEqualTo("sec_ann");

        refused("claim as another editor through the API", () -> ann.engine().claim(claimAs(Owner.named("sec_bob"), "news", 1)));
        refused("claim as another editor with raw SQL", () -> annDb.dsl().update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, "sec_bob").set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1))
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .where(ARTICLE.LOCKED_BY.isNull()).and(ARTICLE.DESK_ID.eq("news")).limit(1).execute());
    }

    @Test
    void anEditorCannotCompleteReleaseOrTakeSomeoneElsesArticle() {
        Lease bobs = bob.queue().claim("sec_bob").articles().get(0).lease();
        long id = (Long) bobs.key().single();
        Lease forged = new Lease(bobs.key(), "sec_bob", bobs.token(), bobs.expiresAt(), bobs.serverTime());

        refused("complete someone else's article through the API",
                () -> ann.engine().complete(forged, Map.of(ARTICLE.STATUS, ArticleStatus.approved), "approve"));
        refused("release someone else's article through the API", () -> ann.engine().release(forged, null));
        refused("approve someone else's article with raw SQL", () -> annDb.dsl().update(ARTICLE)
                .set(ARTICLE.STATUS, ArticleStatus.approved).setNull(ARTICLE.LOCKED_BY).setNull(ARTICLE.EXPIRES_AT)
                .where(ARTICLE.ID.eq(id)).execute());
        refused("force-release as an editor", () -> ann.supervision().forceRelease(id, "sec_ann", "mine now"));
        refused("reassign as an editor", () -> ann.engine().reassign(RowKey.of(id), "sec_ann", "sec_ann", Duration.ofMinutes(5), null));
        refused("record a decision in someone else's name", () -> annDb.dsl().insertInto(DECISION, DECISION.REQUEST_ID,
                DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.VERDICT, DECISION.NOTES, DECISION.LEASE_TOKEN)
                .values(UUID.randomUUID().toString(), id, "sec_bob", org.copydesk.db.schema.enums.DecisionVerdict.approve, "",
                        bobs.token()).execute());
        assertThat(bob.engine().renew(bobs, Duration.ofMinutes(10), null).applied()).isTrue();
    }

    @Test
    void anEditorCannotHoldALeaseLongerThanTheDeskAllows() {
        HeldArticle held = ann.queue().claim("sec_ann").articles().get(0);
        refused("extend own lease past the desk's limit through the API",
                () -> ann.engine().renew(held.lease(), Duration.ofHours(10), null));
        refused("extend own lease past the desk's limit with raw SQL", () -> annDb.dsl().update(ARTICLE)
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofDays(1))).where(ARTICLE.ID.eq(held.id())).execute());
        refused("supervisor's extend used by an editor", () -> ann.supervision().extend(held.id(), Duration.ofHours(3), "sec_ann"));
        assertThat(ann.engine().renew(held.lease(), Duration.ofMinutes(30), null).applied()).isTrue();
    }

    @Test
    void anEditorCannotClaimOutsideTheirDesksOrPastTheirCapacity() {
        refused("claim outside own desks through the API", () -> ann.engine().claim(claimAs(Owner.session("sec_ann"), "legal", 1)));
        refused("claim outside own desks with raw SQL", () -> annDb.dsl().update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, "sec_ann").set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1))
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .where(ARTICLE.DESK_ID.eq("legal")).limit(1).execute());
        refused("claim past capacity through the API", () -> ann.engine().claim(claimAs(Owner.session("sec_ann"), "news", 3)));
        assertThat(ann.queue().claim("sec_ann").articles()).hasSize(2);
        refused("claim past capacity with raw SQL", () -> annDb.dsl().update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, "sec_ann").set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1))
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .where(ARTICLE.LOCKED_BY.isNull()).and(ARTICLE.DESK_ID.eq("news")).limit(1).execute());
    }

    @Test
    void anEditorCannotReadOrWriteSomeoneElsesDrafts() {
        long id = bob.queue().claim("sec_bob").articles().get(0).id();
        bob.drafts().save(id, "sec_bob", Verdict.REJECT, "Bob's private doubts");

        assertThat(ann.drafts().load(id, "sec_ann")).isEmpty();
        refused("read another editor's draft with raw SQL", () -> annDb.dsl().select(REVIEW_DRAFT.NOTES).from(REVIEW_DRAFT).fetch());
        refused("read another editor's draft through the API", () -> ann.drafts().load(id, "sec_bob"));
        refused("overwrite another editor's draft", () -> annDb.dsl().update(REVIEW_DRAFT).set(REVIEW_DRAFT.NOTES, "gotcha")
                .where(REVIEW_DRAFT.EDITOR_ID.eq("sec_bob")).execute());
        refused("write a draft in another editor's name", () -> ann.drafts().save(id, "sec_bob", null, "forged"));
        assertThat(bob.drafts().load(id, "sec_bob")).get().extracting(Drafts.Draft::notes).isEqualTo("Bob's private doubts");
        assertThat(sue.drafts().load(id, "sec_bob")).isPresent(); // supervisors read everything
    }

    @Test
    void nobodyButTheAdminRewritesHistoryAndEditorsCannotForgeIt() {
        ann.queue().claim("sec_ann");
        refused("delete history", () -> annDb.dsl().deleteFrom(LEASE_EVENT).execute());
        refused("edit history", () -> annDb.dsl().update(LEASE_EVENT).set(LEASE_EVENT.ACTOR, "nobody").execute());
        refused("delete history as a supervisor", () -> sueDb.dsl().deleteFrom(LEASE_EVENT).execute());
        refused("purge as a supervisor", () -> sue.history().purgeOlderThan(Duration.ofSeconds(1)));

        annDb.dsl().insertInto(LEASE_EVENT, LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTION, LEASE_EVENT.ACTOR,
                LEASE_EVENT.OCCURRED_AT).values("article", "1", "approve", "sec_sue", java.time.LocalDateTime.of(2001, 1, 1, 0, 0)).execute();
        Record forged = root.selectFrom(LEASE_EVENT).orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne();
        assertThat(forged.get(LEASE_EVENT.ACTOR)).as("an editor writes history only in their own name").isEqualTo("sec_ann");
        assertThat(forged.get(LEASE_EVENT.OCCURRED_AT).getYear()).as("and at the server's time").isGreaterThan(2020);
        attempts.add("write history in a supervisor's name and backdated -> stored as sec_ann at the server's time");
    }

    @Test
    void anEditorCannotChangeAnArticlesTextOrTheirOwnCapacity() {
        long id = ann.queue().claim("sec_ann").articles().get(0).id();
        refused("change the text of an article one holds", () -> annDb.dsl().update(ARTICLE).set(ARTICLE.TITLE, "Rewritten")
                .where(ARTICLE.ID.eq(id)).execute());
        refused("change the text of any article", () -> annDb.dsl().update(ARTICLE).set(ARTICLE.BODY, "Rewritten").execute());
        refused("move an article to another desk", () -> annDb.dsl().update(ARTICLE).set(ARTICLE.DESK_ID, "legal")
                .where(ARTICLE.ID.eq(id)).execute());
        refused("raise one's own capacity", () -> annDb.dsl().update(EDITOR).set(EDITOR.CAPACITY, 50)
                .where(EDITOR.ID.eq("sec_ann")).execute());
        refused("add oneself to a desk", () -> annDb.dsl().insertInto(EDITOR_DESK, EDITOR_DESK.EDITOR_ID, EDITOR_DESK.DESK_ID)
                .values("sec_ann", "legal").execute());
        refused("import articles", () -> annDb.dsl().insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE,
                ARTICLE.BODY).values("x-1", "news", "t", "b").execute());
        refused("approve an article one does not hold", () -> annDb.dsl().update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.approved)
                .where(ARTICLE.LOCKED_BY.isNull()).execute());
        refused("change another desk's lease length", () -> annDb.dsl().update(DESK).set(DESK.LEASE_SECONDS, 86_400).execute());
    }

    @Test
    void theEditorsOwnWorkFlowsThroughTheSameRules() {
        HeldArticle held = ann.queue().claim("sec_ann").articles().get(0);
        ann.drafts().save(held.id(), "sec_ann", Verdict.APPROVE, "fine");
        assertThat(ann.drafts().load(held.id(), "sec_ann")).isPresent();
        assertThat(ann.queue().renew("sec_ann", List.of(held)).renewed()).hasSize(1);
        Lease current = ann.queue().held("sec_ann").stream().filter(h -> h.id() == held.id()).findFirst().orElseThrow().lease();
        DecisionOutcome outcome = ann.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), current,
                Verdict.APPROVE, "fine"));
        assertThat(outcome).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(root.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(held.id()))).isEqualTo(ArticleStatus.approved);
        HeldArticle second = ann.queue().held("sec_ann").get(0);
        assertThat(ann.decisions().submit(new DecisionRequest(UUID.randomUUID(), second.id(), second.lease(), Verdict.SEND_BACK,
                "check quotes"))).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(ann.queue().release(ann.queue().claim("sec_ann").articles().get(0))).isEmpty();
        // the release service in an editor's client may end expired leases of others, and only that
        bob.queue().claim("sec_bob");
        root.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.LOCKED_BY.eq("sec_bob")).execute();
        assertThat(ann.engine().releaseExpired(10, 10, "release-service")).isNotEmpty();
    }

    @Test
    void aSupervisorCanForceReleaseReassignExtendAndRequeue() {
        HeldArticle bobs = bob.queue().claim("sec_bob").articles().get(0);
        assertThat(sue.supervision().forceRelease(bobs.id(), "sec_sue", "legal check")).isPresent();
        HeldArticle again = bob.queue().claim("sec_bob").articles().get(0);
        assertThat(sue.supervision().reassign(again.id(), "sec_ann", "sec_sue", true, "urgent").owner()).isEqualTo("sec_ann");
        assertThat(sue.supervision().extend(again.id(), Duration.ofHours(1), "sec_sue")).isPresent();
        HeldArticle q = bob.queue().claim("sec_bob").articles().get(0);
        bob.decisions().submit(new DecisionRequest(UUID.randomUUID(), q.id(), q.lease(), Verdict.UNREVIEWABLE, "garbled"));
        sue.quarantine().requeue(q.id(), "sec_sue", "Fixed title", null, "fixed");
        assertThat(root.fetchValue(ARTICLE.TITLE, ARTICLE.ID.eq(q.id()))).isEqualTo("Fixed title");
        assertThat(root.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("sec_sue"))).isGreaterThanOrEqualTo(4);
        assertThatThrownBy(() -> sueDb.dsl().update(LEASE_EVENT).set(LEASE_EVENT.DETAIL, "x").execute())
                .hasStackTraceContaining("denied");
    }
}
