package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * When the database answers again after a freeze or a restart, the window keeps what it holds and
 * takes nothing more unless its editor asked for that ("top itself up"): after an outage every
 * window of the newsroom would otherwise claim up to its capacity at once.
 */
@ExtendWith(DatabaseExtension.class)
class BackOnlineClaimsNothingTest {

    private static final EditorViewModel.Settings FAST = new EditorViewModel.Settings(Duration.ofSeconds(1),
            Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2), Duration.ofMillis(800),
            Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(8));

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ManualTicker ticker = new ManualTicker();
    private final HeldBackTasks frozen = new HeldBackTasks(); // the work is done, its answer waits: a frozen server
    private Editor ann;
    private EditorViewModel model;

    BackOnlineClaimsNothingTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        ann = EditorNewsroom.ann(session, dsl, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 4, 3, -60);
        model = new EditorViewModel(session, frozen, ticker, ann, List.of("news"), FAST, ZoneId.of("UTC"));
        model.start();
        frozen.deliver();
        Fixtures.articles(dsl, "news", 1, 3, -60); // a fifth arrives: Ann has room, and has not asked for it
    }

    @AfterEach
    void close() {
        model.close();
    }

    private int heldInTheDatabase() {
        return dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("ann"));
    }

    private void freezeThenAnswerAgain() {
        model.notesProperty().set("typed while the server was frozen");
        ticker.advance(Duration.ofSeconds(5)); // the draft save and the list watch hang
        assertThat(model.offlineProperty().get()).as("offline while the server does not answer").isTrue();
        frozen.deliver(); // it answers again: the hung calls and the probe come back
        ticker.advance(Duration.ofSeconds(2));
        frozen.deliver();
        ticker.advance(Duration.ofSeconds(2));
        frozen.deliver();
    }

    @Test
    void theWindowKeepsItsFourAndClaimsNoFifthWhenTheDatabaseIsBack() {
        assertThat(model.articles()).hasSize(4);
        assertThat(model.autoTopUpProperty().get()).as("top itself up: off").isFalse();

        freezeThenAnswerAgain();

        assertThat(model.offlineProperty().get()).isFalse();
        assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.startsWith("Back online"));
        assertThat(heldInTheDatabase()).as("nothing claimed that nobody asked for").isEqualTo(4);
        assertThat(model.articles()).hasSize(4);
        assertThat(model.waitingProperty().get()).as("the fifth is offered, not taken").contains("F5");
    }

    @Test
    void anEditorWhoChoseToTopUpGetsTheFifth() {
        model.autoTopUpProperty().set(true); // the control: her setting, not the reconnection, claims
        freezeThenAnswerAgain();
        for (int second = 0; second < 10 && heldInTheDatabase() < 5; second++) {
            ticker.advance(Duration.ofSeconds(1));
            frozen.deliver();
        }

        assertThat(heldInTheDatabase()).as("waiting: %s; notices: %s", model.waitingProperty().get(),
                model.notices().stream().map(Notice::text).toList()).isEqualTo(5);
    }
}
