package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A decision that looks sent and is not: the editor approves, sees the green "Approved …" with
 * Undo and moves on to her next article; a newer revision of the one she approved lands inside the
 * undo window (or just before it is sent, and the database refuses it). The screen says so at once
 * (not sent: outdated, notes kept, with a button that opens it) and does not pull her away from
 * the article she is reading now.
 */
@ExtendWith(DatabaseExtension.class)
class DecisionNotSentTest {

    private static final Duration WATCH = EditorViewModel.Settings.WATCH_INTERVAL;

    private final DSLContext dsl;
    private final ReviewSession session;
    private final WriterRevisions writer;
    private final ManualTicker ticker = new ManualTicker();
    private EditorViewModel model;
    private long pool;
    private long other;

    DecisionNotSentTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.writer = new WriterRevisions(session);
    }

    @BeforeEach
    void annHoldsTwo() {
        var ann = EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
        LeaseRow poolRow = model.articles().stream().filter(r -> r.article().title().equals("Pool to close")).findFirst().orElseThrow();
        pool = poolRow.id();
        other = model.articles().stream().filter(r -> r.id() != pool).findFirst().orElseThrow().id();
        model.selectedProperty().set(poolRow);
        model.verdictProperty().set(Verdict.APPROVE);
        model.notesProperty().set("Looks right.");
        model.submit();
        assertThat(model.notices()).extracting(Notice::text).contains("Approved \u201cPool to close\u201d.");
        assertThat(model.selectedProperty().get().id()).as("she moves on to her next article").isEqualTo(other);
        model.notesProperty().set("Reading this one now");
    }

    @AfterEach
    void close() {
        model.close();
    }

    private void theScreenSaysTheTruthAndKeepsHerPlace() {
        assertThat(model.selectedProperty().get().id()).as("not pulled away from what she reads").isEqualTo(other);
        assertThat(model.notesProperty().get()).isEqualTo("Reading this one now");
        assertThat(model.notices()).as("no green Approved any more").noneMatch(n -> n.text().startsWith("Approved"));
        Notice notSent = model.notices().stream()
                .filter(n -> n.text().startsWith("Your decision on \u201cPool to close\u201d was not sent")).findFirst().orElse(null);
        assertThat(notSent).as("notices: %s", model.notices()).isNotNull();
        assertThat(notSent.text()).contains("a newer version arrived", "Your notes are kept");
        assertThat(notSent.kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(model.articles()).extracting(LeaseRow::id).contains(pool, other);
        assertThat(dsl.fetchCount(DECISION, DECISION.ARTICLE_ID.eq(pool))).as("nothing recorded").isZero();

        notSent.action().run(); // "Open it"
        model.dismiss(notSent);
        assertThat(model.selectedProperty().get().id()).isEqualTo(pool);
        assertThat(model.notesProperty().get()).as("her notes on it are kept").isEqualTo("Looks right.");
        assertThat(model.revisions().refusalProperty().get()).as("said beside Submit too").isEqualTo(RevisionWords.outdated());
    }

    @Test
    void aNewerRevisionSeenInsideTheUndoWindowIsSaidAtOnceWithoutMovingTheSelection() {
        writer.arrives("Pool to close", WriterRevisions.SECOND);
        ticker.advance(WATCH.plusSeconds(1)); // the list watch reads, inside the undo window

        theScreenSaysTheTruthAndKeepsHerPlace();
    }

    @Test
    void aDecisionTheDatabaseRefusesAsOutdatedIsSaidAtOnceWithoutMovingTheSelection() {
        ticker.advance(WATCH.plusSeconds(1)); // the list watch has read: nothing newer yet
        writer.arrives("Pool to close", WriterRevisions.SECOND); // lands before the next read
        ticker.advance(EditorViewModel.UNDO_WINDOW.minus(WATCH)); // the undo window ends: sent, and refused

        theScreenSaysTheTruthAndKeepsHerPlace();
    }
}
