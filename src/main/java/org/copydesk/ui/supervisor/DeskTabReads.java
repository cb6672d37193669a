package org.copydesk.ui.supervisor;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.Desk;

/**
 * How a dashboard tab about one desk (the Queue, the Stages) reads it: off the FX thread, one read at
 * a time, again every refresh interval while the tab is shown and the pointer is not on its rows, and a
 * read for a desk no longer chosen is dropped (its successor's read is under way).
 */
final class DeskTabReads<T> {

    private final DashboardContext context;
    private final String what;
    private final Function<String, T> read;
    private final Function<T, String> deskOf;
    private final StringProperty loadError;
    private final BooleanProperty pointerOver;
    private boolean loading;
    private long lastLoadNanos;
    private boolean shown;

    /**
     * @param what   the read's name in the log ("load the desk's queue")
     * @param read   the desk's id → what the tab shows (off the FX thread)
     * @param deskOf which desk a read result is for
     */
    DeskTabReads(DashboardContext context, String what, Function<String, T> read, Function<T, String> deskOf,
                 StringProperty loadError, BooleanProperty pointerOver) {
        this.context = context;
        this.what = what;
        this.read = read;
        this.deskOf = deskOf;
        this.loadError = loadError;
        this.pointerOver = pointerOver;
    }

    /** Reads {@code desk} (nothing while a read is under way); {@code show} gets the result on the FX thread. */
    void refresh(Desk desk, Supplier<Desk> chosen, Consumer<T> show) {
        if (desk == null || loading) {
            return;
        }
        loading = true;
        lastLoadNanos = context.ticker.nanoTime();
        context.tasks.run(what, () -> read.apply(desk.id()), result -> {
            loading = false;
            context.reached();
            loadError.set("");
            if (chosen.get() != null && chosen.get().id().equals(deskOf.apply(result))) {
                show.accept(result);
            }
        }, failure -> {
            loading = false;
            context.failed(failure, loadError);
        });
    }

    /** True when the tab should read again: shown, the pointer elsewhere, nothing under way, the interval passed. */
    boolean due(long now) {
        return shown && !pointerOver.get() && !loading && now - lastLoadNanos >= context.settings.refreshInterval().toNanos();
    }

    void shown(boolean isShown) {
        shown = isShown;
    }
}
