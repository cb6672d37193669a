package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import javafx.application.Platform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The watchdog the app flow tests rely on: a socket waited on by the FX thread is caught and named. */
class FxThreadWatchdogTest {

    private FxThreadWatchdog watchdog;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void stop() {
        watchdog.close();
    }

    @Test
    void aSocketWaitedOnByTheFxThreadIsCaughtWithItsCaller() {
        watchdog = new FxThreadWatchdog(50);
        Platform.runLater(FxThreadWatchdogTest::waitOnASocket);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(watchdog.ioOnFxThread()).singleElement().asString()
                .contains("FX thread waited").contains("FxThreadWatchdogTest.waitOnASocket");
        assertThat(watchdog.maxStallMillis()).isGreaterThanOrEqualTo(300);
    }

    private static void waitOnASocket() {
        try (ServerSocket nobodyCalls = new ServerSocket(0)) {
            nobodyCalls.setSoTimeout(400);
            nobodyCalls.accept();
        } catch (SocketTimeoutException expected) {
            // what the test wanted: 400 ms in accept()
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
