package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.TaskExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Draft saves that reach the database out of the order they were made. A save that hung on a
 * frozen server is tried again once the server answers, and can then land after the save of what
 * the editor typed since: the window said "Draft saved" while the database held the older text.
 */
@ExtendWith(DatabaseExtension.class)
class DraftSaveOrderTest {

    private final ReviewSession session;
    private final TestDatabase db;
    private final ManualTicker ticker = new ManualTicker();
    private final HeldWork tasks = new HeldWork();
    private EditorViewModel model;

    DraftSaveOrderTest(TestDatabase db) {
        this.db = db;
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void signedIn() {
        Editor ann = EditorNewsroom.ann(session, db.dsl(), 3, List.of("news"));
        Fixtures.articles(db.dsl(), "news", 2, 3, -60);
        model = new EditorViewModel(session, tasks, ticker, ann, List.of("news"), EditorViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        model.start();
        tasks.runAll();
    }

    @AfterEach
    void close() {
        model.close();
        tasks.runAll();
    }

    @Test
    void aSaveThatLandsAfterALaterOneLeavesTheLaterText() {
        long id = model.selectedProperty().get().id();
        tasks.hold();
        model.notesProperty().set("First sentence.");
        ticker.advance(Duration.ofSeconds(1)); // typing stopped: autosave
        model.notesProperty().set("First sentence. Second sentence.");
        ticker.advance(Duration.ofSeconds(1));
        List<Runnable> saves = tasks.take("save draft");
        assertThat(saves).as("one save per pause in typing").hasSize(2);

        saves.get(1).run(); // the later save reaches the database first
        saves.get(0).run(); // then the one that hung

        assertThat(session.drafts().load(id, "ann")).get().extracting(d -> d.notes()).isEqualTo("First sentence. Second sentence.");
        assertThat(model.draftStatusProperty().get()).isEqualTo(Messages.text("editor.draft.saved"));
    }

    /** Work held until the test runs it, in any order, on the test's thread; results delivered at once. */
    private static final class HeldWork implements TaskExecutor {

        private record Held(String what, Runnable run) {
        }

        private final List<Held> held = new ArrayList<>();
        private boolean holding;

        @Override
        public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
            Runnable run = () -> {
                T result;
                try {
                    result = work.call();
                } catch (Exception e) {
                    onFailure.accept(e);
                    return;
                }
                onSuccess.accept(result);
            };
            if (holding) {
                held.add(new Held(what, run));
            } else {
                run.run();
            }
        }

        @Override
        public void onUiThread(Runnable update) {
            update.run();
        }

        void hold() {
            holding = true;
        }

        /** The held work called {@code what}, taken out of the queue. */
        List<Runnable> take(String what) {
            List<Runnable> taken = held.stream().filter(h -> h.what().equals(what)).map(Held::run).toList();
            held.removeIf(h -> h.what().equals(what));
            return taken;
        }

        /** Runs everything held and stops holding. */
        void runAll() {
            holding = false;
            while (!held.isEmpty()) {
                held.remove(0).run().run();
            }
        }
    }
}
