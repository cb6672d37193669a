package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The windows open on this computer, for cascading and for "signed in twice". */
class OpenWindowsTest {

    @TempDir
    Path folder;
    private Process other;

    @AfterEach
    void cleanUp() throws Exception {
        if (other != null) {
            other.destroyForcibly().waitFor();
        }
    }

    @Test
    void aSecondWindowSeesTheFirstAndASignInAsTheSamePersonIsNoticed() throws Exception {
        other = new ProcessBuilder("sleep", "60").start(); // stands for another Copydesk process
        OpenWindows first = new OpenWindows(folder, other.toHandle());
        OpenWindows second = new OpenWindows(folder, ProcessHandle.current());

        assertThat(first.open()).isEmpty();
        assertThat(second.open()).as("the second window cascades from the first").hasSize(1);
        first.signedIn("ann", "the embedded database on this computer");

        assertThat(second.signedIn("bob", "the embedded database on this computer")).isEmpty();
        assertThat(second.signedIn("ann", "jdbc:mysql://db.example.org/copydesk")).as("another database").isEmpty();
        assertThat(second.signedIn("ann", "the embedded database on this computer"))
                .singleElement().satisfies(w -> assertThat(w.pid()).isEqualTo(other.pid()));

        other.destroyForcibly().waitFor();
        assertThat(second.others()).as("a window whose process is gone (a crash) does not count").isEmpty();
        assertThat(files()).as("the crashed window's entry is tidied up").containsExactly(Long.toString(ProcessHandle.current().pid()));
        second.close();
        assertThat(files()).isEmpty();
    }

    @Test
    void twoWindowsSigningInAtOnceBothSeeEachOther() throws Exception {
        // the preferences store this first used lost one process's entry when both wrote within a second
        other = new ProcessBuilder("sleep", "60").start();
        OpenWindows first = new OpenWindows(folder, other.toHandle());
        OpenWindows second = new OpenWindows(folder, ProcessHandle.current());
        first.open();
        second.open();
        second.signedIn("sue", "db");
        assertThat(first.signedIn("sue", "db")).hasSize(1);
        assertThat(second.signedIn("sue", "db")).hasSize(1);
    }

    private List<String> files() throws Exception {
        try (var list = Files.list(folder)) {
            return list.map(p -> p.getFileName().toString()).toList();
        }
    }
}
