package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
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
 * The warning before a held article is late, on the real database with a manual clock: "“Title” is
 * due in 10 min" once at the editor's lead time and "“Title” is late" once when it passes, both as a
 * notice and to the desktop (the path of a lease about to run out); not for an article without a due
 * time, not again on the next tick, again for a due time a supervisor moved. And the list's order:
 * articles back from their writers first, but not above one due earlier.
 */
@ExtendWith(DatabaseExtension.class)
class DueWarningTest {

    /** No heartbeat or idle timeout within a test: a renewal reads the server's clock again, which the manual clock has run ahead of. */
    private static final EditorViewModel.Settings QUIET = new EditorViewModel.Settings(Duration.ofSeconds(1), Duration.ofHours(1),
            Duration.ofHours(1), Duration.ofMinutes(2), Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(8),
            Duration.ofSeconds(8));

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ManualTicker ticker = new ManualTicker();
    private final List<String> desktop = new CopyOnWriteArrayList<>();
    private Editor ann;
    private EditorViewModel model;

    DueWarningTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        ann = EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news"), QUIET, ZoneId.of("UTC"));
        model.onAttention(desktop::add);
    }

    @AfterEach
    void close() {
        model.close();
    }

    private List<String> said() {
        return model.notices().stream().map(Notice::text).filter(t -> t.contains("is due") || t.contains("is late")).toList();
    }

    @Test
    void warnsOnceAtTheLeadTimeAndOnceWhenLateAndNeverForAnArticleWithoutADueTime() {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        Deadlines.due(session, dsl, ids.get(0), Duration.ofMinutes(11));
        model.start();
        assertThat(model.articles()).hasSize(2);

        ticker.advance(Duration.ofSeconds(30));
        assertThat(said()).as("10 min 30 s left: not yet").isEmpty();

        ticker.advance(Duration.ofSeconds(35));
        assertThat(said()).containsExactly("\u201cArticle 0\u201d is due in 10 min.");
        assertThat(desktop).containsExactly("\u201cArticle 0\u201d is due in 10 min.");
        assertThat(model.notices()).filteredOn(n -> n.text().contains("is due")).extracting(Notice::kind)
                .containsExactly(Notice.Kind.WARNING);

        ticker.advance(Duration.ofMinutes(5));
        assertThat(desktop).as("said once, not on every tick").hasSize(1);

        ticker.advance(Duration.ofMinutes(5).plusSeconds(30));
        assertThat(said()).as("the late notice replaces the warning").containsExactly("\u201cArticle 0\u201d is late.");
        assertThat(desktop).containsExactly("\u201cArticle 0\u201d is due in 10 min.", "\u201cArticle 0\u201d is late.");

        ticker.advance(Duration.ofMinutes(2));
        assertThat(desktop).as("late once, and nothing ever about Article 1, which has no due time").hasSize(2);
        assertThat(model.articles().get(1).dueLeftProperty().get()).isNull();
    }

    @Test
    void anArticleClaimedLateIsMarkedNotAnnouncedAndTheLeadTimeIsTheEditorsSetting() {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        Deadlines.due(session, dsl, ids.get(0), Duration.ofMinutes(-12));
        Deadlines.due(session, dsl, ids.get(1), Duration.ofMinutes(14));
        model.settings().dueWarningMinutesProperty().set(15);
        model.start();

        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.articles().get(0).dueLeftProperty().get()).isNegative();
        assertThat(desktop).as("late before it was Ann's: her card says so; only the 15-minute warning is news")
                .containsExactly("\u201cArticle 1\u201d is due in 14 min.");
    }

    @Test
    void aDueTimeMovedByASupervisorShowsAfterTheNextReloadAndIsWarnedAboutAgain() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Deadlines.due(session, dsl, id, Duration.ofMinutes(5));
        model.start();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(desktop).containsExactly("\u201cArticle 0\u201d is due in 5 min.");
        assertThat(model.due().selectedText().get()).isEqualTo("due in 5 min");

        Deadlines.due(session, dsl, id, Duration.ofMinutes(8)); // Sue moves it: the print edition waits
        model.reload();
        ticker.advance(Duration.ofSeconds(1));

        assertThat(model.due().selectedText().get()).isEqualTo("due in 8 min");
        assertThat(desktop).as("a new due time is new news").containsExactly("\u201cArticle 0\u201d is due in 5 min.",
                "\u201cArticle 0\u201d is due in 8 min.");
        assertThat(said()).as("the old warning went").containsExactly("\u201cArticle 0\u201d is due in 8 min.");
    }

    /**
     * The list puts articles back from their writers first, but (as the claim order does) not above
     * one due earlier: the late story stays on top; without due times, returned first as ever.
     */
    @Test
    void aLateArticleStaysAboveOnesBackFromTheirWritersThatAreDueLater() {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        dsl.update(ARTICLE).set(ARTICLE.ATTEMPTS, 1).where(ARTICLE.ID.in(ids.get(1), ids.get(2))).execute();
        Deadlines.due(session, dsl, ids.get(0), Duration.ofMinutes(-5));
        Deadlines.due(session, dsl, ids.get(1), Duration.ofHours(3));
        model.start();

        assertThat(model.articles()).extracting(r -> r.article().title()).containsExactly("Article 0", "Article 1", "Article 2");
        assertThat(model.articles()).extracting(LeaseRow::returned).containsExactly(false, true, true);
    }

    @Test
    void withoutDueTimesArticlesBackFromTheirWritersComeFirstAsBefore() {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        dsl.update(ARTICLE).set(ARTICLE.ATTEMPTS, 1).where(ARTICLE.ID.eq(ids.get(2))).execute();
        model.start();

        assertThat(model.articles()).extracting(r -> r.article().title()).containsExactly("Article 2", "Article 0", "Article 1");
    }
}
