package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TcpProxy;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The editor's view model, every state, with a same-thread executor, a manual clock and the real database. */
@ExtendWith(DatabaseExtension.class)
class EditorViewModelTest {

    private static final EditorViewModel.Settings FAST = new EditorViewModel.Settings(Duration.ofSeconds(1),
            Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2), Duration.ofMillis(800),
            Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(8));

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private final ManualTicker ticker = new ManualTicker();
    private Editor ann;
    private EditorViewModel model;

    EditorViewModelTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        ann = EditorNewsroom.ann(session, dsl, 3, List.of("news", "sport"));
        model = newModel(session);
    }

    private EditorViewModel newModel(ReviewSession with) {
        return newModel(with, TaskExecutor.sameThread());
    }

    private EditorViewModel newModel(ReviewSession with, TaskExecutor tasks) {
        return new EditorViewModel(with, tasks, ticker, ann, List.of("news", "sport"), FAST, ZoneId.of("UTC"));
    }

    @AfterEach
    void close() {
        model.close();
    }

    @Test
    void startGetsArticlesUpToCapacityAndOpensTheFirst() {
        Fixtures.articles(dsl, "news", 5, 3, -60);

        model.start();

        assertThat(model.articles()).hasSize(3);
        assertThat(model.selectedProperty().get()).isSameAs(model.articles().get(0));
        assertThat(model.titleProperty().get()).isEqualTo("Article 0");
        assertThat(model.bodyProperty().get()).isEqualTo("Body 0");
        assertThat(model.metaProperty().get()).startsWith("News \u00b7 priority 3");
        assertThat(model.history()).extracting(h -> h.action()).containsExactly("claim");
        assertThat(model.emptyTextProperty().get()).isEmpty();
        assertThat(model.notices()).extracting(Notice::text).contains("3 new articles.");
    }

    @Test
    void anEmptyQueueSaysWhenTheNextArticleComes() {
        Fixtures.articles(dsl, "sport", 1, 3, 3600);

        model.start();

        assertThat(model.articles()).isEmpty();
        assertThat(model.emptyTextProperty().get()).startsWith("Nothing on News and Sport right now; next article available at ");
        assertThat(model.selectedProperty().get()).isNull();
    }

    @Test
    void countdownsFollowTheServerLeaseAndWarnBeforeExpiry() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute(); // 2.5 min leases: the warning comes after ~30 s
        model.start();
        LeaseRow row = model.articles().get(0);
        assertThat(row.remainingProperty().get()).isBetween(Duration.ofSeconds(147), Duration.ofSeconds(150));

        ticker.advance(Duration.ofSeconds(10));
        assertThat(row.remainingProperty().get()).isBetween(Duration.ofSeconds(137), Duration.ofSeconds(140));
        assertThat(row.expiringSoonProperty().get()).isFalse();

        ticker.advance(Duration.ofSeconds(25));
        assertThat(row.expiringSoonProperty().get()).isTrue();
        Notice warning = model.notices().stream().filter(n -> n.actionLabel() != null).findFirst().orElseThrow();
        assertThat(warning.text()).contains("goes back to the queue in");

        warning.action().run(); // "Keep it"
        assertThat(row.expiringSoonProperty().get()).isFalse();
        assertThat(row.remainingProperty().get()).isGreaterThan(Duration.ofSeconds(145));
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(1);
    }

    @Test
    void theHeartbeatRenewsWhileTheEditorWorksAndStopsWhenIdle() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();

        ticker.advance(Duration.ofSeconds(61));
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(2);

        ticker.advance(Duration.ofMinutes(12)); // no activity: idle after 10 minutes
        int renewsWhileIdleStarts = dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"));
        ticker.advance(Duration.ofMinutes(5));
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(renewsWhileIdleStarts);

        model.activity();
        ticker.advance(Duration.ofSeconds(61));
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isGreaterThan(renewsWhileIdleStarts);
    }

    @Test
    void submitRecordsTheDecisionAndMovesOn() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        long first = model.articles().get(0).id();

        model.verdictProperty().set(Verdict.APPROVE);
        assertThat(model.canSubmitProperty().get()).isTrue();
        model.submit();
        assertThat(model.articles()).extracting(LeaseRow::id).as("off the list at once").doesNotContain(first);
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1)); // then sent

        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(first))).isEqualTo(ArticleStatus.approved);
        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(first);
        assertThat(model.selectedProperty().get()).isNotNull();
        assertThat(model.verdictProperty().get()).isNull();
        assertThat(model.notices().get(0).text()).startsWith("Approved");
    }

    @Test
    void aDecisionCanBeUndoneForAFewSecondsAndNothingIsWritten() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        LeaseRow first = model.selectedProperty().get();
        model.verdictProperty().set(Verdict.REJECT);
        model.notesProperty().set("Duplicate");
        model.submit();
        Notice undo = model.notices().stream().filter(n -> "Undo".equals(n.actionLabel())).findFirst().orElseThrow();
        assertThat(undo.text()).isEqualTo("Rejected \u201cArticle 0\u201d.");
        assertThat(model.selectedProperty().get()).isNotSameAs(first);

        ticker.advance(EditorViewModel.UNDO_WINDOW.minusSeconds(2));
        undo.action().run();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(5));

        assertThat(dsl.fetchCount(DECISION)).isZero();
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(first.id()))).isEqualTo(ArticleStatus.queued);
        assertThat(model.articles()).contains(first);
        assertThat(model.selectedProperty().get()).isSameAs(first);
        assertThat(model.verdictProperty().get()).isEqualTo(Verdict.REJECT);
        assertThat(model.notesProperty().get()).isEqualTo("Duplicate");
    }

    @Test
    void getArticlesDuringTheUndoWindowDoesNotBringTheDecidedArticleBack() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        LeaseRow first = model.selectedProperty().get();
        model.verdictProperty().set(Verdict.APPROVE);
        model.submit();

        model.reload(); // F5 while the decision waits out its undo window (the lease is still held)

        assertThat(model.articles()).extracting(LeaseRow::id).as("decided, waiting to be sent").doesNotContain(first.id());
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1)); // sent
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(first.id()))).isEqualTo(ArticleStatus.approved);
        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(first.id());
        assertThat(model.articles()).hasSize(1);
    }

    @Test
    void undoAfterGetArticlesBringsTheArticleBackOnce() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        LeaseRow first = model.selectedProperty().get();
        model.verdictProperty().set(Verdict.APPROVE);
        model.submit();
        model.reload();

        model.undo(first.id());

        assertThat(model.articles()).extracting(LeaseRow::id).containsOnlyOnce(first.id());
        assertThat(model.selectedProperty().get()).isSameAs(first);
    }

    @Test
    void theNextDecisionCanBeSubmittedWhileAnEarlierOneIsBeingSent() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        HeldBackTasks tasks = new HeldBackTasks();
        EditorViewModel quick = newModel(session, tasks);
        quick.start();
        tasks.deliver();
        LeaseRow first = quick.selectedProperty().get();
        quick.verdictProperty().set(Verdict.APPROVE);
        quick.submit();
        tasks.deliver();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1)); // the first decision is on its way, its answer not back yet
        assertThat(quick.submittingProperty().get()).isTrue();
        LeaseRow second = quick.selectedProperty().get();

        quick.verdictProperty().set(Verdict.APPROVE);
        assertThat(quick.canSubmitProperty().get()).isTrue();
        quick.submit(); // Ctrl+Enter at that moment

        assertThat(quick.articles()).as("the second left the list too").isEmpty();
        tasks.deliver();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));
        tasks.deliver();
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(first.id()))).isEqualTo(ArticleStatus.approved);
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(second.id()))).isEqualTo(ArticleStatus.approved);
        quick.close();
    }

    @Test
    void theNextArticlesTextShowsAtOnceAfterSubmitAndTheOpeningReadStillHasTheLastWord() {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        HeldBackTasks tasks = new HeldBackTasks();
        EditorViewModel quick = newModel(session, tasks);
        quick.start();
        tasks.deliver(); // the claim, the first article opened, the texts read ahead
        // the stored text of the revision the editor was handed changes after the read-ahead
        dsl.update(ARTICLE).set(ARTICLE.BODY, "Body 1, revised").where(ARTICLE.ID.eq(ids.get(1))).execute();
        dsl.update(ARTICLE_REVISION).set(ARTICLE_REVISION.BODY,
                "Body 1, revised").where(ARTICLE_REVISION.ARTICLE_ID.eq(ids.get(1))).execute();

        quick.verdictProperty().set(Verdict.APPROVE);
        quick.submit();

        assertThat(quick.titleProperty().get()).isEqualTo("Article 1");
        assertThat(quick.bodyProperty().get()).as("before any read comes back").isEqualTo("Body 1");
        tasks.deliver();
        assertThat(quick.bodyProperty().get()).as("opening it read it again").isEqualTo("Body 1, revised");
        quick.close();
    }

    @Test
    void aDecisionStillInItsUndoWindowIsSentWhenTheWindowCloses() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        long id = model.selectedProperty().get().id();
        model.verdictProperty().set(Verdict.APPROVE);
        model.submit();
        assertThat(dsl.fetchCount(DECISION)).isZero();

        model.close();

        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(id))).isEqualTo(ArticleStatus.approved);
    }

    @Test
    void aDecisionThatNeedsANoteCannotBeSubmittedWithoutOne() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();

        model.verdictProperty().set(Verdict.REJECT);
        assertThat(model.canSubmitProperty().get()).isFalse();
        model.submit();
        assertThat(model.notices().get(0).text()).contains("needs a note");

        model.notesProperty().set("Duplicate");
        assertThat(model.canSubmitProperty().get()).isTrue();
        // seen in a working day: the warning stayed on screen after the note was typed
        assertThat(model.notices()).extracting(n -> n.text()).noneMatch(t -> t.contains("needs a note"));
    }

    @Test
    void draftsAutosaveAfterAPauseAndComeBackInANewSession() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        long id = model.selectedProperty().get().id();
        model.verdictProperty().set(Verdict.SEND_BACK);
        model.notesProperty().set("Para 2 needs a source");
        assertThat(model.draftStatusProperty().get()).isEqualTo("Not saved yet");

        ticker.advance(Duration.ofSeconds(2));

        assertThat(model.draftStatusProperty().get()).isEqualTo("Draft saved");
        assertThat(session.drafts().load(id, "ann")).get().extracting(d -> d.notes()).isEqualTo("Para 2 needs a source");

        model.close(); // the app closes; the editor comes back later
        EditorViewModel again = newModel(session);
        again.start();
        again.selectedProperty().set(again.articles().stream().filter(r -> r.id() == id).findFirst().orElseThrow());
        assertThat(again.notesProperty().get()).isEqualTo("Para 2 needs a source");
        assertThat(again.verdictProperty().get()).isEqualTo(Verdict.SEND_BACK);
        assertThat(again.draftStatusProperty().get()).startsWith("Draft restored from");
        again.close();
    }

    @Test
    void switchingArticlesKeepsEachArticlesNotes() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        model.notesProperty().set("notes on the first");
        model.selectNext();
        assertThat(model.notesProperty().get()).isEmpty();
        model.notesProperty().set("notes on the second");
        model.selectPrevious();
        assertThat(model.notesProperty().get()).isEqualTo("notes on the first");
    }

    @Test
    void aLeaseLostWhileReviewingIsExplainedAndTheNotesStay() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        LeaseRow row = model.selectedProperty().get();
        model.notesProperty().set("Half-written thoughts");
        session.supervision().forceRelease(row.id(), "sue", "Legal review first");

        model.activity();
        ticker.advance(Duration.ofSeconds(4)); // the list watch finds out

        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(row.id());
        Notice lost = model.notices().stream().filter(n -> n.kind() == Notice.Kind.INFO).findFirst().orElseThrow();
        assertThat(lost.text()).isEqualTo("Sue Lindqvist took \u201cArticle 0\u201d back: \u201cLegal review first\u201d."
                + " Your notes go with it to whoever reviews it next.");
        assertThat(session.drafts().load(row.id(), "ann")).get().extracting(d -> d.notes()).isEqualTo("Half-written thoughts");
    }

    @Test
    void submittingUnderALostLeaseKeepsTheTextAndSaysWhy() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        LeaseRow row = model.selectedProperty().get();
        session.supervision().reassign(row.id(), "sue", "sue", true, "I'll take this one");
        model.verdictProperty().set(Verdict.REJECT);
        model.notesProperty().set("Not newsworthy");

        model.submit();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));

        assertThat(model.articles()).isEmpty();
        assertThat(model.notices().get(0).text()).contains("gave \u201cArticle 0\u201d to Sue Lindqvist");
        assertThat(session.drafts().load(row.id(), "ann")).get().extracting(d -> d.notes()).isEqualTo("Not newsworthy");
        assertThat(dsl.fetchCount(DECISION)).isZero();
    }

    @Test
    void releaseGivesTheArticleBackAndKeepsTheDraft() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        LeaseRow row = model.selectedProperty().get();
        model.notesProperty().set("come back to this");

        model.releaseSelected();

        assertThat(model.articles()).isEmpty();
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(row.id()))).isNull();
        assertThat(session.drafts().load(row.id(), "ann")).isPresent();
    }

    @Test
    void whenTheDatabaseGoesAwayTheAppGoesOfflineKeepsTextAndRecovers() throws Exception {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", db.endpoint().port());
             Database viaProxy = Database.open(db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name()),
                     db.endpoint().user(), db.endpoint().password().toCharArray(), null, DataSources.PoolSize.of(2),
                     Database.SchemaAction.NONE, null)) {
            // no reconnecting retries: each call fails after one pool timeout (5 s), not after the desktop's 10 s of
            // retries each (this test ran the calls on its own thread and waited 30 s for them); those retries
            // have tests of their own
            ReviewSession remote = new ReviewSession(viaProxy, new ReviewSession.Options(null, Duration.ofSeconds(5), Duration.ZERO));
            model.close();
            model = newModel(remote);
            model.start();
            long id = model.selectedProperty().get().id();

            proxy.cut();
            model.notesProperty().set("typed while the network was down");
            ticker.advance(Duration.ofSeconds(2)); // the autosave fails at 1 s: offline; the first probe, at 2 s, fails too

            assertThat(model.offlineProperty().get()).as("offline while the network is cut; notices: %s",
                    model.notices().stream().map(Notice::text).toList()).isTrue();
            assertThat(model.bannerProperty().get()).contains("cannot reach the database", "kept on this computer");
            assertThat(model.canReloadProperty().get()).isFalse();
            assertThat(model.notesProperty().get()).isEqualTo("typed while the network was down");

            proxy.restore();
            ticker.advance(Duration.ofSeconds(10)); // the next probe succeeds

            assertThat(model.offlineProperty().get()).isFalse();
            assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.startsWith("Back online"));
            assertThat(session.drafts().load(id, "ann")).get().extracting(d -> d.notes())
                    .isEqualTo("typed while the network was down");
            assertThat(model.articles()).hasSize(2);
        }
    }

    @Test
    void aDatabaseThatStopsAnsweringShowsTheBannerWithinSecondsKeepsTheTypingAndComesBack() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        HeldBackTasks frozen = new HeldBackTasks(); // the work is done, its answer does not come back: a frozen server
        model.close();
        model = newModel(session, frozen);
        model.start();
        frozen.deliver();
        long id = model.selectedProperty().get().id();

        model.notesProperty().set("typed while the server was frozen");
        ticker.advance(Duration.ofSeconds(5)); // the draft save and the list watch hang

        assertThat(model.offlineProperty().get()).as("offline within seconds, as for a dead server").isTrue();
        assertThat(model.bannerProperty().get()).startsWith("The database is not answering.").contains("kept on this computer")
                .as("no countdown: the probe waits for the frozen server's answer").doesNotContain("trying again in");
        assertThat(model.canReloadProperty().get()).isFalse();
        assertThat(model.notesProperty().get()).isEqualTo("typed while the server was frozen");

        frozen.deliver(); // the server answers again: the hung calls and the probe come back
        ticker.advance(Duration.ofSeconds(2));
        frozen.deliver();

        assertThat(model.offlineProperty().get()).isFalse();
        assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.startsWith("Back online"));
        assertThat(session.drafts().load(id, "ann")).get().extracting(d -> d.notes()).isEqualTo("typed while the server was frozen");
    }

    @Test
    void aSupervisorsExtraTimeIsNotUndoneByTheNextHeartbeatNorByGetArticles() {
        // a renewal must not shorten it: "Give more time" to 07:58 once read 07:47 a minute later
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        LeaseRow row = model.selectedProperty().get();
        var claimed = dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(row.id()));
        session.supervision().extend(row.id(), Duration.ofMinutes(20), "sue");
        var extended = dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(row.id()));
        assertThat(extended).isAfter(claimed.plusMinutes(19));

        model.activity();
        ticker.advance(Duration.ofSeconds(61)); // the holder's heartbeat renews

        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(1);
        assertThat(dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(row.id()))).isEqualTo(extended);
        assertThat(row.remainingProperty().get()).isGreaterThan(Duration.ofMinutes(48));

        model.reload(); // Get articles refreshes held leases: never shorter either
        assertThat(dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(row.id()))).isEqualTo(extended);
        assertThat(model.articles().get(0).remainingProperty().get()).isGreaterThan(Duration.ofMinutes(48));
    }

    @Test
    void anArticleReassignedToTheEditorArrivesWithinFiveSecondsSaysWhoAndWhyAndIsRenewed() {
        // not only after a reconnect, and renewed with the rest (it once sat there with 0 renewals)
        Fixtures.articles(dsl, "news", 2, 3, -60);
        session.newsroom().addEditor("bob", "Bob Marsh", Role.EDITOR, 1, List.of("news"));
        session.queue().claim("bob"); // bob takes the most urgent one
        List<String> desktop = new ArrayList<>();
        model.onAttention(desktop::add);
        model.start();
        assertThat(model.articles()).hasSize(1);
        long bobs = dsl.fetchValue(ARTICLE.ID, ARTICLE.LOCKED_BY.eq("bob"));

        session.supervision().reassign(bobs, "ann", "sue", false, "Ann knows this story");
        model.activity();
        ticker.advance(Duration.ofSeconds(4)); // the list watch, well before the next heartbeat

        assertThat(model.articles()).extracting(LeaseRow::id).contains(bobs);
        String title = dsl.fetchValue(ARTICLE.TITLE, ARTICLE.ID.eq(bobs));
        assertThat(model.notices()).extracting(Notice::text)
                .contains("Sue Lindqvist gave you \u201c" + title + "\u201d: \u201cAnn knows this story\u201d.");
        assertThat(desktop).as("news for someone working in another window")
                .contains("Sue Lindqvist gave you \u201c" + title + "\u201d: \u201cAnn knows this story\u201d.");

        model.activity();
        ticker.advance(Duration.ofSeconds(61)); // the next heartbeat renews it with the others
        assertThat(dsl.fetchValue(ARTICLE.RENEWALS, ARTICLE.ID.eq(bobs))).isEqualTo(1);
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(bobs))).isEqualTo("ann");
        assertThat(model.articles()).hasSize(2);
    }

    @Test
    void anArticleWhoseTimeRanOutLeavesTheListAtOnceWithTheReasonAndTheNotesStay() {
        // not left at 0:00 with the decision buttons enabled
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        model.start();
        LeaseRow row = model.selectedProperty().get();
        model.verdictProperty().set(Verdict.APPROVE);
        model.notesProperty().set("Fine apart from the headline");
        ticker.advance(Duration.ofSeconds(1)); // autosaved
        model.notesProperty().set("Fine apart from the headline; check the quote");
        assertThat(model.canSubmitProperty().get()).isTrue();

        // heartbeats keep the lease for 10 minutes of activity; then the editor is idle and it runs out
        ticker.advance(Duration.ofMinutes(12));
        assertThat(model.articles()).containsExactly(row);
        ticker.advance(Duration.ofSeconds(40)); // the countdown reaches 0:00

        assertThat(model.articles()).isEmpty();
        assertThat(model.selectedProperty().get()).isNull();
        assertThat(model.canSubmitProperty().get()).isFalse();
        assertThat(model.notices()).extracting(Notice::text)
                .contains("Your time on \u201cArticle 0\u201d ran out and it went back to the queue. Your notes are kept as a draft.");
        assertThat(session.drafts().load(row.id(), "ann")).get().extracting(d -> d.notes())
                .isEqualTo("Fine apart from the headline; check the quote");

        model.activity();
        ticker.advance(Duration.ofSeconds(61)); // nor does the next heartbeat bring it back
        assertThat(model.articles()).isEmpty();
    }

    @Test
    void getArticlesKeepsTheArticlesHeldWhereTheyWereAndAddsNewOnesAfterThem() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        FXCollections.reverse(model.articles()); // the order the editor sees, whatever the database's
        List<Long> seen = model.articles().stream().map(LeaseRow::id).toList();
        Fixtures.articles(dsl, "sport", 1, 3, -60);

        model.reload();

        assertThat(model.articles()).extracting(LeaseRow::id).hasSize(3).startsWith(seen.toArray(Long[]::new));
    }

    @Test
    void aRanOutNoticeLeavesWhenGetArticlesGivesTheSameArticleBack() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        model.start();
        long id = model.selectedProperty().get().id();
        ticker.advance(Duration.ofMinutes(12)); // idle: the heartbeat stops renewing
        ticker.advance(Duration.ofSeconds(40)); // and the lease runs out
        assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.contains("ran out"));

        model.reload(); // F5: the same article, the editor's again

        assertThat(model.articles()).extracting(LeaseRow::id).containsExactly(id);
        assertThat(model.notices()).extracting(Notice::text).noneMatch(t -> t.contains("ran out"));
    }

    @Test
    void aRunningOutWarningLeavesOnceAnotherWindowsHeartbeatRenewedTheLease() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        EditorViewModel.Settings idleSoon = new EditorViewModel.Settings(FAST.tick(), FAST.heartbeatInterval(),
                Duration.ofSeconds(10), FAST.warnBefore(), FAST.autosaveDelay(), FAST.firstReconnectDelay(),
                FAST.maxReconnectDelay(), FAST.noticeLifetime());
        model.close();
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news", "sport"), idleSoon,
                ZoneId.of("UTC"));
        model.start(); // this window: the editor has left it
        EditorViewModel other = newModel(session); // the same editor works in another window
        other.start();
        assertThat(other.articles()).hasSize(1);

        for (int i = 0; i < 35; i++) {
            other.activity();
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.contains("goes back to the queue"));

        // The test's clock moves, the server's hardly does: a renewal now would end where the lease ends already.
        // With longer leases on the desk it ends visibly later.
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 600).execute();
        for (int i = 0; i < 30; i++) { // the other window's heartbeat renews at one minute; this one's list watch sees it
            other.activity();
            ticker.advance(Duration.ofSeconds(1));
        }

        assertThat(model.articles().get(0).remainingProperty().get()).isGreaterThan(Duration.ofMinutes(2));
        assertThat(model.notices()).extracting(Notice::text).noneMatch(t -> t.contains("goes back to the queue"));
        other.close();
    }

    @Test
    void emptyNotesSayNothingAboutDrafts() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        long id = model.selectedProperty().get().id();

        model.verdictProperty().set(Verdict.APPROVE);
        assertThat(model.draftStatusProperty().get()).isEmpty();
        ticker.advance(Duration.ofSeconds(2)); // autosaved: the decision chosen
        assertThat(model.draftStatusProperty().get()).isEmpty();
        model.notesProperty().set("x");
        assertThat(model.draftStatusProperty().get()).isEqualTo("Not saved yet");
        model.notesProperty().set("");
        assertThat(model.draftStatusProperty().get()).isEmpty();
        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.draftStatusProperty().get()).isEmpty();

        model.close(); // a new session: the draft (a decision, no notes) comes back without a word
        EditorViewModel again = newModel(session);
        again.start();
        again.selectedProperty().set(again.articles().stream().filter(r -> r.id() == id).findFirst().orElseThrow());
        assertThat(again.verdictProperty().get()).isEqualTo(Verdict.APPROVE);
        assertThat(again.draftStatusProperty().get()).isEmpty();
        again.close();
    }

    @Test
    void aWorkingEditorsLeasesShorterThanTheHeartbeatAreRenewedInTime() {
        // the other side: leaving the list at 0:00 must not cost an active editor their work
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 30).execute();
        model.start();
        for (int i = 0; i < 10; i++) {
            model.activity();
            ticker.advance(Duration.ofSeconds(10));
        }
        assertThat(model.articles()).hasSize(1);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isBetween(3, 10);
    }
}
