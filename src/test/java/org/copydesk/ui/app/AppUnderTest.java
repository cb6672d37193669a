package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.copydesk.db.DatabaseConfig;
import org.copydesk.ui.common.FxThreadWatchdog;
import org.slf4j.LoggerFactory;
import org.testfx.api.FxToolkit;

/**
 * The real app started headless for a flow test, with the FX-thread watchdog on; stopping it
 * fails the test if the FX thread was ever caught in I/O.
 */
final class AppUnderTest {

    private AppUnderTest() {
    }

    static CopydeskApp start(String url, String user, String password) throws Exception {
        System.setProperty("copydesk.prefs", "org/copydesk-test/" + ProcessHandle.current().pid());
        System.setProperty("copydesk.fxWatchdog", "true");
        CopydeskApp.useDatabase(new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, url, user,
                password == null ? null : password.toCharArray(), null));
        FxToolkit.registerPrimaryStage();
        return (CopydeskApp) FxToolkit.setupApplication(CopydeskApp::new);
    }

    static void stop(CopydeskApp app) throws Exception {
        FxThreadWatchdog watchdog = app.watchdog();
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
        try {
            assertThat(watchdog.ioOnFxThread()).as("I/O on the FX thread").isEmpty();
            LoggerFactory.getLogger(AppUnderTest.class).info("FX thread: longest stall {} ms, {} stall(s) over 50 ms",
                    watchdog.maxStallMillis(), watchdog.stallsOverThreshold());
        } finally {
            watchdog.close();
        }
    }
}
