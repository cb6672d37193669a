package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first run on a Linux desktop without GTK 3 ended in "Unable to load glass GTK library." and
 * a stack trace; it says what to install, in one line, before JavaFX starts or when it fails.
 */
class DesktopLibrariesTest {

    /** {@code ldconfig -p} on a Debian without GTK 3 (abridged). */
    private static final String WITHOUT_GTK = """
            1234 libs found in cache `/etc/ld.so.cache'
            \tlibgtk-x11-2.0.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0
            \tlibX11.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libX11.so.6
            """;
    private static final String WITH_GTK = WITHOUT_GTK + "\tlibgtk-3.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libgtk-3.so.0\n";

    @Test
    void withoutGtkThreeTheAppSaysInOneLineWhatToInstall() {
        assertThatThrownBy(() -> DesktopLibraries.check("Linux", Optional.of(WITHOUT_GTK), List.of()))
                .hasMessage("Copydesk's window needs GTK 3, which this system does not have. Install it (Debian or Ubuntu:"
                        + " sudo apt-get install libgtk-3-0; Fedora: sudo dnf install gtk3) and start Copydesk again.")
                .hasMessageNotContaining("\n");
    }

    @Test
    void withGtkThreeOrWhereTheSystemCannotTellTheWindowOpens(@TempDir Path dir) throws Exception {
        assertThatCode(() -> DesktopLibraries.check("Linux", Optional.of(WITH_GTK), List.of())).doesNotThrowAnyException();
        assertThatCode(() -> DesktopLibraries.check("Linux", Optional.empty(), List.of())).as("no library cache to ask")
                .doesNotThrowAnyException();
        Files.createFile(dir.resolve(DesktopLibraries.GTK));
        assertThatCode(() -> DesktopLibraries.check("Linux", Optional.of(WITHOUT_GTK), List.of(dir)))
                .as("GTK in LD_LIBRARY_PATH").doesNotThrowAnyException();
        assertThatCode(() -> DesktopLibraries.check("Mac OS X", Optional.of(WITHOUT_GTK), List.of())).doesNotThrowAnyException();
    }

    @Test
    void javaFxsOwnFailureForTheMissingLibraryIsSaidTheSameWay() {
        RuntimeException glass = new RuntimeException(new UnsupportedOperationException("Unable to load glass GTK library."));
        assertThat(DesktopLibraries.explain(glass)).hasMessageContaining("sudo apt-get install libgtk-3-0");
        RuntimeException other = new IllegalStateException("Something else");
        assertThat(DesktopLibraries.explain(other)).isSameAs(other);
    }
}
