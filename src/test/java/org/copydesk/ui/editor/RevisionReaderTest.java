package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.review.WordDiff;
import org.copydesk.review.imports.RevisionRow;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Revisions in the editor's view model, on the real database: a returned article opens with the
 * word diff against the revision sent back and the notes that asked for the changes; the holder of
 * an article is told within seconds that a newer version arrived, a decision on the old one is
 * refused beside Submit with the notes kept, and taking the new one shows what changed.
 */
@ExtendWith(DatabaseExtension.class)
class RevisionReaderTest {

    /** The list watch asks every 3 s; the heartbeat is a minute away. */
    private static final Duration WITHIN_FIVE_SECONDS = Duration.ofSeconds(4);

    private final DSLContext dsl;
    private final ReviewSession session;
    private final WriterRevisions writer;
    private final ManualTicker ticker = new ManualTicker();
    private Editor ann;
    private Editor bob;
    private EditorViewModel model;

    RevisionReaderTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.writer = new WriterRevisions(session);
    }

    @BeforeEach
    void newsroom() {
        ann = EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        bob = session.newsroom().addEditor("bob", "Bob Marsh", Role.EDITOR, 3, List.of("news"));
    }

    @AfterEach
    void close() {
        if (model != null) {
            model.close();
        }
    }

    private EditorViewModel windowOf(Editor editor) {
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, editor, List.of("news"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
        return model;
    }

    @Test
    void anArticleBackFromItsWriterOpensWithTheChangesMarkedAndTheNotesThatAskedForThem() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        WriterRevisions.sentBackBy(session, "ann");
        assertThat(writer.arrives("Pool to close", WriterRevisions.SECOND).revisionRows())
                .singleElement().extracting(RevisionRow::kind).isEqualTo(RevisionRow.Kind.RETURNED);

        windowOf(bob);

        assertThat(model.articles()).singleElement().extracting(r -> r.article().externalId()).isEqualTo(WriterRevisions.EXTERNAL_ID);
        RevisionDiff diff = model.revisions().diffProperty().get();
        assertThat(diff).as("the reader marks what changed").isNotNull();
        assertThat(diff.fromRevision()).isEqualTo(1);
        assertThat(diff.toRevision()).isEqualTo(2);
        assertThat(diff.notes()).isEqualTo(WriterRevisions.NOTES);
        assertThat(diff.heading()).contains("revision 2", "Ann Kowalski sent revision 1 back for changes on ");
        assertThat(diff.body()).contains(new WordDiff.Segment(WordDiff.Change.DELETED, "7-2"),
                new WordDiff.Segment(WordDiff.Change.INSERTED, "8-1"), new WordDiff.Segment(WordDiff.Change.INSERTED, "evening "));
        assertThat(WordDiff.newText(diff.body())).isEqualTo(WriterRevisions.SECOND);
        assertThat(diff.wordsAdded()).isEqualTo(2);
        assertThat(diff.wordsRemoved()).isEqualTo(1);
        assertThat(model.bodyProperty().get()).as("the clean text is the new revision").isEqualTo(WriterRevisions.SECOND);
        assertThat(model.revisions().showChangesProperty().get()).as("changes are shown unless the editor chose otherwise").isTrue();
    }

    @Test
    void anArticleNeverSentBackOpensAsPlainText() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        windowOf(ann);
        assertThat(model.articles()).hasSize(1);
        assertThat(model.bodyProperty().get()).isEqualTo(WriterRevisions.FIRST);
        assertThat(model.revisions().diffProperty().get()).isNull();
        assertThat(model.revisions().newerNoticeProperty().get()).isEmpty();
    }

    @Test
    void theHolderIsToldWithinSecondsThatANewerVersionArrivedAndKeepsReadingTheirsUntilTheyTakeIt() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        windowOf(ann);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.revisions().newerNoticeProperty().get()).isEmpty();

        assertThat(writer.arrives("Pool to close", WriterRevisions.SECOND).revisionRows())
                .singleElement().extracting(RevisionRow::kind).isEqualTo(RevisionRow.Kind.REVISED_HELD);
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.revisions().newerNoticeProperty().get())
                .isEqualTo("The writer sent a newer version (revision 2). Your notes are kept.");
        assertThat(model.bodyProperty().get()).as("what they read does not change under them").isEqualTo(WriterRevisions.FIRST);

        model.selectNext(); // opening the article again still shows the revision the editor's decision is made on
        assertThat(model.bodyProperty().get()).isEqualTo(WriterRevisions.FIRST);

        model.notesProperty().set("Fine by me.");
        model.revisions().loadNewer();

        assertThat(model.bodyProperty().get()).isEqualTo(WriterRevisions.SECOND);
        assertThat(model.revisions().newerNoticeProperty().get()).isEmpty();
        RevisionDiff diff = model.revisions().diffProperty().get();
        assertThat(diff).isNotNull();
        assertThat(diff.heading()).isEqualTo("Changes from revision 1, which you were reading, to revision 2.");
        assertThat(WordDiff.oldText(diff.body())).isEqualTo(WriterRevisions.FIRST);
        assertThat(WordDiff.newText(diff.body())).isEqualTo(WriterRevisions.SECOND);
        assertThat(model.notesProperty().get()).as("the notes stay").isEqualTo("Fine by me.");

        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.revisions().newerNoticeProperty().get()).as("taken: not announced again").isEmpty();
        assertThat(model.revisions().diffProperty().get()).isSameAs(diff);

        writer.arrives("Pool to close", WriterRevisions.THIRD);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.revisions().newerNoticeProperty().get()).contains("(revision 3)");
    }

    @Test
    void aDecisionOnTheOldVersionIsRefusedBesideSubmitTheNotesStayAndTheNewVersionCanThenBeDecided() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        windowOf(ann);
        long id = model.articles().get(0).id();
        writer.arrives("Pool to close", WriterRevisions.SECOND); // before the list watch has asked

        model.verdictProperty().set(Verdict.REJECT);
        model.notesProperty().set("The vote count is wrong.");
        model.submit();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));

        assertThat(model.revisions().refusalProperty().get()).isEqualTo(RevisionWords.outdated());
        assertThat(model.notices()).as("said beside Submit, not in a notice").extracting(n -> n.text())
                .noneMatch(t -> t.contains("newer version"));
        assertThat(model.articles()).extracting(LeaseRow::id).containsExactly(id);
        assertThat(model.selectedProperty().get().id()).isEqualTo(id);
        assertThat(model.notesProperty().get()).isEqualTo("The vote count is wrong.");
        assertThat(model.verdictProperty().get()).isEqualTo(Verdict.REJECT);
        assertThat(session.drafts().load(id, "ann")).as("kept as a draft in the database too")
                .get().extracting(d -> d.notes()).isEqualTo("The vote count is wrong.");
        assertThat(model.revisions().newerNoticeProperty().get()).as("told at once which version arrived")
                .isEqualTo("The writer sent a newer version (revision 2). Your notes are kept.");
        assertThat(dsl.fetchCount(DECISION, DECISION.ARTICLE_ID.eq(id))).isZero();

        model.revisions().loadNewer();
        assertThat(model.revisions().refusalProperty().get()).isEmpty();
        model.submit();
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));

        assertThat(model.articles()).isEmpty();
        assertThat(dsl.select(DECISION.REVISION).from(DECISION).where(DECISION.ARTICLE_ID.eq(id)).fetchOne(DECISION.REVISION))
                .as("recorded against the revision the editor read last").isEqualTo(2);
    }

    @Test
    void aDecisionOnAVersionKnownToBeOutdatedIsRefusedAtSubmitWithoutAnUndoFirst() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        windowOf(ann);
        long id = model.articles().get(0).id();
        writer.arrives("Pool to close", WriterRevisions.SECOND);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.revisions().newerNoticeProperty().get()).contains("(revision 2)");

        model.verdictProperty().set(Verdict.APPROVE);
        model.notesProperty().set("Looks right.");

        assertThat(model.canSubmitProperty().get()).as("Submit refuses at once").isFalse();
        assertThat(model.whyNoSubmitProperty().get()).isEqualTo(
                "The writer sent a newer version: show it and check what changed before you decide. Your notes are kept.");
        model.submit(); // Ctrl+Enter all the same
        assertThat(model.notices()).as("no green Approved with Undo").noneMatch(n -> "Undo".equals(n.actionLabel()));
        assertThat(model.articles()).extracting(LeaseRow::id).containsExactly(id);
        assertThat(model.notesProperty().get()).isEqualTo("Looks right.");
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));
        assertThat(dsl.fetchCount(DECISION, DECISION.ARTICLE_ID.eq(id))).isZero();

        model.revisions().loadNewer();
        assertThat(model.canSubmitProperty().get()).as("on the new version it can be decided").isTrue();
    }

    @Test
    void aNewerVersionArrivingDuringTheUndoWindowBringsTheDecisionBackBeforeItIsSent() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        windowOf(ann);
        long id = model.articles().get(0).id();
        model.verdictProperty().set(Verdict.APPROVE);
        model.notesProperty().set("Looks right.");
        model.submit();
        assertThat(model.articles()).isEmpty();

        writer.arrives("Pool to close", WriterRevisions.SECOND);
        ticker.advance(WITHIN_FIVE_SECONDS); // the list watch reads, inside the undo window

        assertThat(model.articles()).extracting(LeaseRow::id).containsExactly(id);
        assertThat(model.notices()).noneMatch(n -> "Undo".equals(n.actionLabel()));
        assertThat(model.revisions().refusalProperty().get()).isEqualTo(RevisionWords.outdated());
        assertThat(model.notesProperty().get()).isEqualTo("Looks right.");
        ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));
        assertThat(dsl.fetchCount(DECISION, DECISION.ARTICLE_ID.eq(id))).as("never sent").isZero();
    }

    @Test
    void anArticleBackFromItsWriterComesFirstInTheListMarkedAsReturned() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        WriterRevisions.sentBackBy(session, "bob");
        Fixtures.articles(dsl, "news", 3, 3, -60);
        windowOf(session.newsroom().setCapacity("ann", 4));
        assertThat(model.articles()).hasSize(3).noneMatch(LeaseRow::returned);

        writer.arrives("Pool to close", WriterRevisions.SECOND); // the writer's revision: it comes back
        model.reload();

        assertThat(model.articles()).hasSize(4);
        assertThat(model.articles().get(0).article().externalId()).as("first, not fourth").isEqualTo(WriterRevisions.EXTERNAL_ID);
        assertThat(model.articles()).filteredOn(LeaseRow::returned).hasSize(1);
    }

    @Test
    void theHeaderAndTheMetaLineNameTheDesksAndFollowTheirChanges() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        session.newsroom().setDesks("ann", List.of("news", "sport"));
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, session.newsroom().requireEditor("ann"),
                List.of("news", "sport"), EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
        assertThat(model.deskSummaryProperty().get()).isEqualTo("News, Sport");
        assertThat(model.metaProperty().get()).startsWith("News \u00b7");

        dsl.update(DESK).set(DESK.NAME, "City news").where(DESK.ID.eq("news")).execute();
        session.newsroom().setDesks("ann", List.of("news")); // an admin takes Sport away
        ticker.advance(Duration.ofSeconds(61));

        assertThat(model.deskSummaryProperty().get()).isEqualTo("City news");
        assertThat(model.metaProperty().get()).startsWith("City news \u00b7");
        assertThat(model.desks()).containsExactly("news");
    }

    @Test
    void learningOfNewerVersionsCostsTheServerNoStatementOfItsOwn() {
        for (int i = 0; i < 3; i++) {
            new WriterRevisions(session, "CMS-5" + i).arrives("Story " + i, WriterRevisions.FIRST);
        }
        windowOf(ann);
        assertThat(model.articles()).hasSize(3);
        long quiet = statementsOverAMinuteOfWatchReads();

        for (int i = 0; i < 3; i++) {
            new WriterRevisions(session, "CMS-5" + i).arrives("Story " + i, WriterRevisions.SECOND);
        }
        long withNews = statementsOverAMinuteOfWatchReads();

        assertThat(model.revisions().newerNoticeProperty().get()).contains("revision 2");
        // A question per held article per read would be 60 more; one or two more is the pool (a
        // statement prepared again on another pooled connection after the imports used one).
        assertThat(withNews).as("statements the window sent in a minute, with 3 newer versions vs none (%d)", quiet)
                .isBetween(quiet, quiet + 2);
    }

    /**
     * Statements the server received while the window's clock moved a minute: twenty list watch
     * reads, and the desks read once (as in every minute).
     */
    private long statementsOverAMinuteOfWatchReads() {
        long before = questions();
        for (int i = 0; i < 20; i++) {
            ticker.advance(EditorViewModel.Settings.WATCH_INTERVAL);
        }
        return questions() - before;
    }

    private long questions() {
        // SHOW works on both families (MySQL 8 has no information_schema.global_status)
        return Long.parseLong(dsl.fetchOne("show global status like 'Questions'").get(1).toString());
    }
}
