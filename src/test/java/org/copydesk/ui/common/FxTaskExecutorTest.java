package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/** The app's background threads: results come back on the FX thread, and nothing starts once closed. */
class FxTaskExecutorTest {

    @BeforeAll
    static void startToolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void workRunsOffTheFxThreadAndItsResultArrivesOnIt() throws Exception {
        try (FxTaskExecutor tasks = new FxTaskExecutor(1)) {
            CompletableFuture<String> where = new CompletableFuture<>();
            tasks.run("where", () -> Thread.currentThread().getName(),
                    worker -> where.complete(worker + (Platform.isFxApplicationThread() ? " then FX" : " then elsewhere")),
                    where::completeExceptionally);
            assertThat(where.get(5, TimeUnit.SECONDS)).isEqualTo("copydesk-io-1 then FX");
        }
    }

    /** A reload that lands on the FX thread just as the window closes reads ahead; that must not throw. */
    @Test
    void workAskedForAfterCloseIsDroppedWithoutAnError() throws Exception {
        FxTaskExecutor tasks = new FxTaskExecutor(1);
        tasks.close();
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<Void> askedOnFx = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                tasks.run("read ahead", () -> ran.getAndSet(true), r -> { }, e -> { });
                askedOnFx.complete(null);
            } catch (RuntimeException e) {
                askedOnFx.completeExceptionally(e);
            }
        });
        assertThatCode(() -> askedOnFx.get(5, TimeUnit.SECONDS)).doesNotThrowAnyException();
        assertThat(ran).isFalse();
    }
}
