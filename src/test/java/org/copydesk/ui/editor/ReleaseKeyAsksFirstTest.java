package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.ZoneId;
import java.util.List;
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
 * Ctrl+Shift+R gave the article back at once, with no question and no Undo (a release cannot be
 * taken back: the article may be someone else's a second later). The key asks first; the same key
 * again, or "Give it back", answers. The Release button, a deliberate click, acts at once.
 */
@ExtendWith(DatabaseExtension.class)
class ReleaseKeyAsksFirstTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private EditorViewModel model;

    ReleaseKeyAsksFirstTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void annHoldsTwo() {
        var ann = EditorNewsroom.ann(session, dsl, 2, List.of("news"));
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model = new EditorViewModel(session, TaskExecutor.sameThread(), new ManualTicker(), ann, List.of("news"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
    }

    @AfterEach
    void close() {
        model.close();
    }

    private String lockedBy(long id) {
        return dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(id));
    }

    @Test
    void theKeyAsksFirstAndTheSameKeyAgainGivesItBack() {
        LeaseRow row = model.selectedProperty().get();

        model.releaseSelectedByKey();

        assertThat(lockedBy(row.id())).as("nothing given back yet").isEqualTo("ann");
        Notice question = model.notices().stream().filter(n -> "Give it back".equals(n.actionLabel())).findFirst().orElseThrow();
        assertThat(question.text()).isEqualTo("Give \u201c" + row.article().title() + "\u201d back to the queue? "
                + "Press the same keys again, or Give it back.");

        model.releaseSelectedByKey();

        assertThat(lockedBy(row.id())).isNull();
        assertThat(model.notices()).doesNotContain(question);
        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(row.id());
    }

    @Test
    void theQuestionsButtonGivesItBackAndTheReleaseButtonActsAtOnce() {
        LeaseRow first = model.selectedProperty().get();
        model.releaseSelectedByKey();
        Notice question = model.notices().stream().filter(n -> "Give it back".equals(n.actionLabel())).findFirst().orElseThrow();
        question.action().run();
        assertThat(lockedBy(first.id())).isNull();

        LeaseRow second = model.selectedProperty().get();
        model.releaseSelected(); // the control: the button, a deliberate click
        assertThat(lockedBy(second.id())).isNull();
    }
}
