package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.prefs.Preferences;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 17, bug 11: the windows open on this computer, for cascading and for "signed in twice". */
class OpenWindowsTest {

    private final Preferences node = Preferences.userRoot().node("org/copydesk-test/open-windows-" + ProcessHandle.current().pid());
    private Process other;

    @AfterEach
    void cleanUp() throws Exception {
        if (other != null) {
            other.destroyForcibly().waitFor();
        }
        node.removeNode();
    }

    @Test
    void aSecondWindowSeesTheFirstAndASignInAsTheSamePersonIsNoticed() throws Exception {
        other = new ProcessBuilder("sleep", "60").start(); // stands for another Copydesk process
        OpenWindows first = new OpenWindows(node, other.toHandle());
        OpenWindows second = new OpenWindows(node, ProcessHandle.current());

        assertThat(first.open()).isEmpty();
        assertThat(second.open()).as("the second window cascades from the first").hasSize(1);
        first.signedIn("ann", "the embedded database on this computer");

        assertThat(second.signedIn("bob", "the embedded database on this computer")).isEmpty();
        assertThat(second.signedIn("ann", "jdbc:mysql://db.example.org/copydesk")).as("another database").isEmpty();
        assertThat(second.signedIn("ann", "the embedded database on this computer"))
                .singleElement().satisfies(w -> assertThat(w.pid()).isEqualTo(other.pid()));

        other.destroyForcibly().waitFor();
        assertThat(second.others()).as("a window whose process is gone (a crash) does not count").isEmpty();
        assertThat(node.keys()).containsExactly(Long.toString(ProcessHandle.current().pid()));
        second.close();
        assertThat(node.keys()).isEmpty();
    }
}
