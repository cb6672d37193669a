package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
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

    private static Set<Thread> threadsBefore = Set.of();

    static CopydeskApp start(String url, String user, String password) throws Exception {
        return start(new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, url, user,
                password == null ? null : password.toCharArray(), null));
    }

    /** The app on {@code config}, e.g. {@link DatabaseConfig#embedded()} for the embedded server of {@code copydesk.home}. */
    static CopydeskApp start(DatabaseConfig config) throws Exception {
        threadsBefore = copydeskThreads();
        System.setProperty("copydesk.prefs", "org/copydesk-test/" + ProcessHandle.current().pid());
        System.setProperty("copydesk.fxWatchdog", "true");
        CopydeskApp.useDatabase(config);
        FxToolkit.registerPrimaryStage();
        return (CopydeskApp) FxToolkit.setupApplication(CopydeskApp::new);
    }

    /** The release service's and the background executor's threads that are alive now. */
    private static Set<Thread> copydeskThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().equals("copydesk-release-service") || t.getName().startsWith("copydesk-io-"))
                .collect(Collectors.toSet());
    }

    static void stop(CopydeskApp app) throws Exception {
        FxThreadWatchdog watchdog = app.watchdog();
        FxToolkit.cleanupApplication(app);
        FxToolkit.cleanupStages();
        try {
            assertThat(watchdog.ioOnFxThread()).as("I/O on the FX thread").isEmpty();
            // Application.stop() must release what the session started, as the close button does
            assertThat(copydeskThreads()).as("threads the app left running").isSubsetOf(threadsBefore);
            LoggerFactory.getLogger(AppUnderTest.class).info("FX thread: longest stall {} ms, {} stall(s) over 50 ms",
                    watchdog.maxStallMillis(), watchdog.stallsOverThreshold());
        } finally {
            watchdog.close();
        }
    }
}
