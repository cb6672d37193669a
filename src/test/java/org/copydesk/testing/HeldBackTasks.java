package org.copydesk.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.copydesk.ui.common.TaskExecutor;

/**
 * A {@link TaskExecutor} that runs the work at once but delivers the result only when the test says
 * so, as the FX thread would later: what a view model looks like while its work is in flight.
 */
public final class HeldBackTasks implements TaskExecutor {

    private final List<Runnable> deliveries = new ArrayList<>();

    @Override
    public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        try {
            T result = work.call();
            deliveries.add(() -> onSuccess.accept(result));
        } catch (Exception e) {
            deliveries.add(() -> onFailure.accept(e));
        }
    }

    @Override
    public void onUiThread(Runnable update) {
        update.run();
    }

    /** Delivers every result held back, and those of the work the deliveries started, until none is left. */
    public void deliver() {
        while (!deliveries.isEmpty()) {
            List<Runnable> now = List.copyOf(deliveries);
            deliveries.clear();
            now.forEach(Runnable::run);
        }
    }
}
