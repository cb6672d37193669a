package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.testing.FxAwait.waitFor;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.Await;
import org.copydesk.testing.StoppedProcess;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.editor.LeaseRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.slf4j.LoggerFactory;
import org.testfx.api.FxRobot;

/**
 * The editor's real window (headless) on an embedded server of its own whose {@code mariadbd} the
 * test stops with SIGSTOP while the editor types: the process is alive, its sockets open, and it
 * answers nothing, so no call fails for up to the driver's 60 s socket timeout. The window must
 * say so within seconds, keep taking keys, and save what was typed once the server runs again.
 * (EditorAppFlowTest freezes a TCP proxy instead; this one stops the server itself.)
 */
@EnabledOnOs(OS.LINUX)
class StoppedServerBannerTest {

    /**
     * The banner's bound: the window calls a database unanswered after 3 s
     * ({@code EditorViewModel.Settings.UNANSWERED_AFTER}), looked at on each 1 s tick, and some
     * call must be under way (typing starts an autosave after 0.8 s); 10 s leaves room for a
     * loaded two-core machine. The same bound as EditorAppFlowTest's proxy freeze.
     */
    private static final int BANNER_WITHIN_SECONDS = 10;
    /** The FX thread's longest stall, as in EditorAppFlowTest: typing in a window that stalls 1 s is not working. */
    private static final long MAX_STALL_MILLIS = 1_000;
    /**
     * After SIGCONT: the reconnect probe under way (or the next, at most 4 s later after a freeze
     * this short: back-off 1, 2, 4 s) gets its answer at once.
     */
    private static final int BACK_WITHIN_SECONDS = 15;

    private final FxRobot robot = new FxRobot();
    private OwnDemoServer server;
    private ReviewSession session;
    private CopydeskApp app;
    private StoppedProcess stopped;

    @BeforeEach
    void startServerAndApp() throws Exception {
        server = OwnDemoServer.start(); // and the test's own session as Ann, to read her drafts
        session = server.ann();
        System.setProperty(AppDirectories.HOME_PROPERTY, server.home().toString());
        app = AppUnderTest.start(DatabaseConfig.embedded()); // attaches to the same server, as a second window would
        // the demo accounts' hint shows once the app has attached to the server and can sign people in
        waitFor(30, () -> robot.lookup("#demo-hint").tryQuery().map(Node::isVisible).orElse(false));
    }

    @AfterEach
    void resumeThenStopAll() throws Exception {
        try {
            if (stopped != null) {
                stopped.close(); // first: a stopped server would hang every shutdown below
            }
        } finally {
            try {
                if (app != null) {
                    AppUnderTest.stop(app);
                }
            } finally {
                System.clearProperty(AppDirectories.HOME_PROPERTY);
                if (server != null) {
                    server.close();
                }
            }
        }
    }

    @Test
    void aStoppedServerShowsTheBannerWithinSecondsKeepsTheTypingAndSavesItAfter() throws Exception {
        robot.interact(() -> {
            robot.lookup("#user").queryAs(TextField.class).setText("ann");
            robot.lookup("#password").queryAs(TextField.class).setText("ann-demo");
        });
        robot.clickOn("#sign-in");
        try {
            waitFor(15, () -> robot.lookup("#desk-news").tryQuery().map(Node::isVisible).orElse(false));
        } catch (AssertionError e) {
            throw new AssertionError("no desks to choose; sign-in error: "
                    + robot.lookup("#sign-in-error").queryAs(Label.class).getText(), e);
        }
        robot.clickOn("#start");
        waitFor(15, () -> articleList().getItems().size() == 5);
        long first = ((LeaseRow) articleList().getItems().get(0)).id();
        waitFor(5, () -> !robot.lookup("#reader-title").queryAs(Label.class).getText().isEmpty());
        String expected = Messages.text("common.notAnswering.banner", Messages.text("editor.offline.notesKept"));

        long pid = serverPid();
        app.watchdog().reset(); // from here on
        stopped = StoppedProcess.stop(pid);
        long stoppedAt = System.nanoTime();
        robot.clickOn("#notes").write("Typed while stopped");

        AtomicReference<String> shown = new AtomicReference<>();
        Label banner = robot.lookup("#offline-banner").queryAs(Label.class);
        Await.waitForOnFxThread(BANNER_WITHIN_SECONDS, () -> { // visibility and words from one moment
            shown.set(banner.getText());
            return banner.isVisible();
        });
        long bannerMillis = (System.nanoTime() - stoppedAt) / 1_000_000;
        assertThat(shown.get()).as("the banner's words").isEqualTo(expected);
        robot.write(" and more"); // the window still takes typing
        assertThat(robot.lookup("#notes").queryAs(TextArea.class).getText()).isEqualTo("Typed while stopped and more");
        assertThat(stopped.isStopped()).as("mariadbd still stopped while the banner showed").isTrue();
        assertThat(app.watchdog().maxStallMillis()).as("the FX thread never waited for the stopped server (banner after %d ms)",
                bannerMillis).isLessThan(MAX_STALL_MILLIS);

        stopped.close();
        long resumedAt = System.nanoTime();
        assertThat(stopped.isStopped()).as("mariadbd running again").isFalse();
        waitFor(BACK_WITHIN_SECONDS, () -> !robot.lookup("#offline-banner").query().isVisible());
        long backMillis = (System.nanoTime() - resumedAt) / 1_000_000;
        waitFor(10, () -> session.drafts().load(first, "ann").map(d -> d.notes().equals("Typed while stopped and more"))
                .orElse(false));
        long savedMillis = (System.nanoTime() - resumedAt) / 1_000_000;
        LoggerFactory.getLogger(StoppedServerBannerTest.class).info(
                "mariadbd stopped: banner after {} ms, FX thread's longest stall {} ms; resumed: banner gone after {} ms,"
                        + " draft saved after {} ms", bannerMillis, app.watchdog().maxStallMillis(), backMillis, savedMillis);
    }

    private ListView<?> articleList() {
        return robot.lookup("#articles").queryAs(ListView.class);
    }

    /** The {@code mariadbd} of this test's server, as its run file names it. */
    private long serverPid() {
        long pid = EmbeddedServer.findRunning(server.serverFolder()).orElseThrow(() -> new AssertionError("no server running"))
                .serverPid();
        String command = ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElse("");
        assertThat(Path.of(command).getFileName().toString()).as("process %d", pid).isEqualTo("mariadbd");
        return pid;
    }
}
