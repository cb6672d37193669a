package org.copydesk.bench;

import java.time.ZoneId;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.prefs.Preferences;
import java.util.stream.Collectors;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.Theme;
import org.copydesk.ui.editor.EditorView;
import org.copydesk.ui.editor.EditorViewModel;
import org.copydesk.ui.editor.LeaseRow;

/**
 * The editor's real window — {@link EditorView} and {@link EditorViewModel} with the app's
 * {@link FxTaskExecutor} (3 threads) and {@link FxTicker}, 1280x800 — driven by key presses, with a
 * stopwatch for what the editor sees. A press is timed from just before the key event is delivered
 * (on the FX thread, to the focused control, as the window gets it from the system) to the end of
 * layout of the first pulse in which the controls show the answer: the pulse's rendering follows
 * at once. The time until the answer reached the FX thread (the list's rows changed, the reader's
 * text was set) is kept apart: the rest is the FX thread's own work and its queue.
 */
final class WindowStopwatch {

    /** One key press: until the window showed the answer, and until the answer reached the FX thread. */
    record Sample(long shownNanos, long arrivedNanos) {
    }

    private static final long TIMEOUT_SECONDS = 60;

    private final Editor editor;
    private final FxTaskExecutor tasks = new FxTaskExecutor(3); // as CopydeskApp
    private EditorViewModel model;
    private Stage stage;
    private Scene scene;
    private ListView<?> list;
    private TextArea body;
    private Label title;
    /** The press being timed; read and written on the FX thread only. */
    private Probe probe;
    /** Pulses that laid the window out: how often the FX thread redraws, whatever the reason. */
    private final AtomicLong pulses = new AtomicLong();

    private static final class Probe {
        final BooleanSupplier arrived;
        final BooleanSupplier shown;
        final CompletableFuture<Sample> done = new CompletableFuture<>();
        long pressedAt;
        long arrivedAt;

        Probe(BooleanSupplier arrived, BooleanSupplier shown) {
            this.arrived = arrived;
            this.shown = shown;
        }
    }

    private WindowStopwatch(Editor editor) {
        this.editor = editor;
    }

    /** Opens the window signed in as {@code editor} (its own services) and starts it, as the app does. */
    static WindowStopwatch open(ReviewSession session, Editor editor, Preferences prefs) {
        WindowStopwatch w = new WindowStopwatch(editor);
        onFx(() -> {
            w.model = new EditorViewModel(session, w.tasks, new FxTicker(), editor, editor.desks(),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(w.model, new HBox(), prefs, DesktopAttention.NONE);
            w.scene = new Scene(view, 1280, 800);
            Theme.LIGHT.apply(w.scene);
            w.stage = new Stage();
            w.stage.setScene(w.scene);
            w.stage.show();
            w.list = (ListView<?>) w.scene.lookup("#articles");
            w.body = (TextArea) w.scene.lookup("#reader-body");
            w.title = (Label) w.scene.lookup("#reader-title");
            w.model.articles().addListener((ListChangeListener<LeaseRow>) c -> w.modelChanged());
            w.model.bodyProperty().addListener((o, was, now) -> w.modelChanged());
            w.scene.addPostLayoutPulseListener(w::afterLayout);
            w.model.start();
            return null;
        });
        return w;
    }

    // --- what the editor does ------------------------------------------------------------------

    /** F5 on an empty list, timed until the window shows a full list of articles it did not show before. */
    Sample getArticles() {
        Set<Long> before = onFx(this::shownIds);
        int capacity = editor.capacity();
        BooleanSupplier arrived = () -> model.articles().size() == capacity
                && model.articles().stream().noneMatch(r -> before.contains(r.id()));
        return press(KeyCode.F5, false, new Probe(arrived, () -> arrived.getAsBoolean()
                && cellsShow().containsAll(model.articles())));
    }

    /**
     * Ctrl+1 (approve), then Ctrl+Enter timed until the reader shows the next article's text;
     * {@code null} for the last article on the list (nothing comes next: it is only submitted).
     */
    Sample approveAndShowNext() {
        pressUntimed(KeyCode.DIGIT1, true);
        boolean last = onFx(() -> model.articles().size() == 1);
        LeaseRow submitted = onFx(() -> model.selectedProperty().get());
        if (submitted == null) {
            throw new IllegalStateException("nothing is selected to decide on");
        }
        if (last) {
            press(KeyCode.ENTER, true, new Probe(() -> model.articles().isEmpty(), () -> model.articles().isEmpty()));
            return null;
        }
        BooleanSupplier arrived = () -> {
            LeaseRow next = model.selectedProperty().get();
            return next != null && next != submitted && model.bodyProperty().get().startsWith(next.article().externalId());
        };
        return press(KeyCode.ENTER, true, new Probe(arrived, () -> arrived.getAsBoolean()
                && body.getText().equals(model.bodyProperty().get())
                && title.getText().equals(model.selectedProperty().get().article().title())));
    }

    /** Approves and submits every article on the list, untimed (the first lease the window's start claimed). */
    void approveAll() {
        while (onFx(() -> !model.articles().isEmpty())) {
            approveAndShowNext();
        }
    }

    long pulses() {
        return pulses.get();
    }

    int shownCount() {
        return onFx(() -> model.articles().size());
    }

    void close() {
        onFx(() -> {
            model.close(); // decisions still in their undo window are sent, as when the app closes
            stage.close();
            return null;
        });
        tasks.close();
    }

    // --- the stopwatch ---------------------------------------------------------------------------

    private Sample press(KeyCode key, boolean shortcut, Probe p) {
        onFx(() -> {
            probe = p;
            p.pressedAt = System.nanoTime();
            deliver(key, shortcut);
            return null;
        });
        try {
            return p.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            // what the window shows then: the list and the editor's notices say why it did not answer
            String shown = onFx(() -> model.articles().size() + " article(s) listed, notices "
                    + model.notices().stream().map(Notice::text).toList());
            throw new IllegalStateException(key + " was not answered within " + TIMEOUT_SECONDS + " s (" + shown + ")", e);
        }
    }

    private void pressUntimed(KeyCode key, boolean shortcut) {
        onFx(() -> {
            deliver(key, shortcut);
            return null;
        });
    }

    /** As the system delivers a key: a KEY_PRESSED to the focused control (the view's filters see it first). */
    private void deliver(KeyCode key, boolean shortcut) {
        Node target = scene.getFocusOwner() != null ? scene.getFocusOwner() : scene.getRoot();
        Event.fireEvent(target, new KeyEvent(KeyEvent.KEY_PRESSED, "", "", key, false, shortcut, false, false));
    }

    private void modelChanged() {
        if (probe != null && probe.arrivedAt == 0 && probe.arrived.getAsBoolean()) {
            probe.arrivedAt = System.nanoTime();
        }
    }

    private void afterLayout() {
        pulses.incrementAndGet();
        Probe p = probe;
        if (p == null || !p.shown.getAsBoolean()) {
            return;
        }
        long now = System.nanoTime();
        probe = null;
        p.done.complete(new Sample(now - p.pressedAt, (p.arrivedAt == 0 ? now : p.arrivedAt) - p.pressedAt));
    }

    private Set<Long> shownIds() {
        return model.articles().stream().map(LeaseRow::id).collect(Collectors.toSet());
    }

    /** The rows the list's cells hold after this layout: what is on the screen. */
    private Set<Object> cellsShow() {
        return list.lookupAll(".list-cell").stream().map(n -> ((ListCell<?>) n).getItem()).filter(Objects::nonNull)
                .collect(Collectors.toSet());
    }

    static <T> T onFx(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the FX thread did not answer", e);
        }
    }
}
