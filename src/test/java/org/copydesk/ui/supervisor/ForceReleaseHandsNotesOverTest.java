package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Drafts;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewQueue;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.editor.EditorViewModel;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A supervisor takes an article back from its editor: her notes go with it, as on a reassignment.
 * Whoever claims it next reads them at the head of their draft, under her name, through their own
 * signed-in account (the view of one's own drafts); she is told where her notes went, not that
 * they are "kept as a draft" of an article she can no longer open.
 */
@ExtendWith(DatabaseExtension.class)
class ForceReleaseHandsNotesOverTest {

    private static final String ANN = "frn_ann";
    private static final String BOB = "frn_bob";
    private static final String CAT = "frn_cat";
    private static final String PASSWORD = "notes-secret-1";
    private static final String NOTES = "Headline overstates the cuts";

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession services;
    private final AccountAdministration accounts;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private Database annDb;
    private Database bobDb;
    private Database catDb;
    private Editor bobEditor;

    ForceReleaseHandsNotesOverTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.accounts = new AccountAdministration(dsl);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor(ANN, "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        bobEditor = services.newsroom().addEditor(BOB, "Bob Okafor", Role.EDITOR, 3, List.of("news"));
        services.newsroom().addEditor(CAT, "Cat Diaz", Role.EDITOR, 3, List.of("news"));
        Editor sue = services.newsroom().addEditor("frn_sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        List.of(ANN, BOB, CAT).forEach(a -> accounts.createAccount(a, PASSWORD.toCharArray()));
        annDb = signIn(ANN);
        bobDb = signIn(BOB);
        catDb = signIn(CAT);
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        dashboard.start();
    }

    private Database signIn(String account) {
        return Database.open(db.endpoint().accountUrl(db.name()), account, PASSWORD.toCharArray(), null, DataSources.PoolSize.of(2),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
    }

    @AfterEach
    void close() {
        dashboard.close();
        List.of(annDb, bobDb, catDb).forEach(Database::close);
        List.of(ANN, BOB, CAT).forEach(accounts::dropAccount);
    }

    private void takeBack(String title) {
        ticker.advance(Duration.ofSeconds(2));
        dashboard.holders().select(dashboard.holders().rows().stream().filter(r -> r.title().equals(title)).toList());
        dashboard.leaseActions().reasonProperty().set("Legal must read it");
        dashboard.leaseActions().forceReleaseSelected();
        dashboard.leaseActions().confirm();
    }

    private static String draftOf(ReviewSession own, long article, String editor) {
        return own.drafts().load(article, editor).map(Drafts.Draft::notes).orElse(null);
    }

    @Test
    void theNextHolderReadsTheNotesUnderTheirWritersNameAndTheFormerHolderIsToldTheyWentOn() {
        ReviewSession ann = new ReviewSession(annDb, ReviewSession.Options.defaults());
        ReviewSession bob = new ReviewSession(bobDb, ReviewSession.Options.defaults());
        ReviewSession cat = new ReviewSession(catDb, ReviewSession.Options.defaults());
        List<HeldArticle> anns = ann.queue().claim(ANN).articles();
        long article = anns.get(0).id();
        ann.drafts().save(article, ANN, null, NOTES);

        takeBack("Article 0");

        List<ReviewQueue.LostArticle> lost = ann.queue().renew(ANN, anns).lost();
        assertThat(lost).hasSize(1);
        assertThat(lost.get(0).message()).as("the truth about her notes").contains("Your notes go with it to whoever reviews it next")
                .doesNotContain("kept as a draft");
        assertThat(dsl.select(LEASE_EVENT.OLD_OWNER, LEASE_EVENT.NEW_OWNER, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("notes_handed_over")).fetchOne().intoList())
                .as("the history keeps them, in the force release's transaction").containsExactly(ANN, null, NOTES);
        assertThat(draftOf(cat, article, CAT)).as("nobody who does not hold it reads them").isNull();

        assertThat(bob.queue().claim(BOB).articles()).extracting(HeldArticle::id).containsExactly(article);
        String handed = draftOf(bob, article, BOB);
        assertThat(handed).as("the next holder's draft starts with them, headed by their author")
                .matches("Notes from Ann Kowalski, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC:\n" + NOTES);
        assertThat(draftOf(ann, article, ANN)).as("her own draft stays hers").isEqualTo(NOTES);
        assertThat(draftOf(cat, article, CAT)).as("still nobody else").isNull();

        bob.drafts().save(article, BOB, null, handed + "\n\nAgreed; the second paragraph too");
        assertThat(draftOf(bob, article, BOB)).as("once saved, his draft holds them: not twice")
                .isEqualTo(handed + "\n\nAgreed; the second paragraph too");

        takeBack("Article 0"); // from Bob now: his draft, with Ann's inside, goes on to Cat
        assertThat(cat.queue().claim(CAT).articles()).extracting(HeldArticle::id).containsExactly(article);
        assertThat(draftOf(cat, article, CAT)).startsWith("Notes from Bob Okafor, ").contains(handed)
                .endsWith("Agreed; the second paragraph too");
    }

    @Test
    void theNextHoldersWindowOpensTheArticleWithTheNotesAndSaysWhoseTheyAre() {
        ReviewSession ann = new ReviewSession(annDb, ReviewSession.Options.defaults());
        ReviewSession bob = new ReviewSession(bobDb, ReviewSession.Options.defaults());
        long article = ann.queue().claim(ANN).articles().get(0).id();
        ann.drafts().save(article, ANN, null, NOTES);
        takeBack("Article 0");

        EditorViewModel window = new EditorViewModel(bob, TaskExecutor.sameThread(), new ManualTicker(), bobEditor, List.of("news"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        try {
            window.start();
            assertThat(window.selectedProperty().get().id()).isEqualTo(article);
            assertThat(window.notesProperty().get()).startsWith("Notes from Ann Kowalski, ").endsWith("UTC:\n" + NOTES);
            assertThat(window.draftStatusProperty().get()).as("not 'Draft restored': they are Ann's")
                    .isEqualTo("Notes from Ann Kowalski, handed over to you with the article");
        } finally {
            window.close();
        }
    }

    @Test
    void notesHandedOverBeforeADecisionStayWithThatRound() {
        ReviewSession ann = new ReviewSession(annDb, ReviewSession.Options.defaults());
        ReviewSession bob = new ReviewSession(bobDb, ReviewSession.Options.defaults());
        ReviewSession cat = new ReviewSession(catDb, ReviewSession.Options.defaults());
        long article = ann.queue().claim(ANN).articles().get(0).id();
        ann.drafts().save(article, ANN, null, NOTES);
        takeBack("Article 0");
        HeldArticle bobs = bob.queue().claim(BOB).articles().get(0);
        assertThat(draftOf(bob, article, BOB)).as("the control: Bob reads them").contains(NOTES);
        assertThat(bob.decisions().submit(new DecisionRequest(UUID.randomUUID(), article, bobs.lease(), Verdict.UNREVIEWABLE,
                "Garbled text"))).isInstanceOf(DecisionOutcome.Recorded.class);
        services.quarantine().requeue(article, "frn_sue", null, null, "Fixed the text");

        assertThat(cat.queue().claim(CAT).articles()).extracting(HeldArticle::id).containsExactly(article);
        assertThat(draftOf(cat, article, CAT)).as("Ann's notes were on the text before the fix").isNull();
    }

    @Test
    void anEditorWhoWroteNothingHandsNothingOver() {
        ReviewSession ann = new ReviewSession(annDb, ReviewSession.Options.defaults());
        ReviewSession bob = new ReviewSession(bobDb, ReviewSession.Options.defaults());
        List<HeldArticle> anns = ann.queue().claim(ANN).articles();

        takeBack("Article 0");

        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("notes_handed_over"))).isZero();
        assertThat(bob.queue().claim(BOB).articles()).hasSize(1);
        assertThat(draftOf(bob, anns.get(0).id(), BOB)).isNull();
    }
}
