package org.copydesk.ui.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.copydesk.ui.common.Messages;

/**
 * What the desktop window needs from the system beyond Java. On Linux JavaFX draws through GTK 3;
 * without it the first run ended in "Unable to load glass GTK library." and a stack trace. Checked
 * before JavaFX starts, from the system's library cache ({@code ldconfig -p}) and
 * {@code LD_LIBRARY_PATH}; where neither can tell, JavaFX's own failure is turned into the same one
 * line (see {@link #explain}).
 */
final class DesktopLibraries {

    static final String GTK = "libgtk-3.so.0";
    private static final String GLASS_FAILURE = "Unable to load glass GTK library";
    private static final List<String> LDCONFIG = List.of("/sbin/ldconfig", "/usr/sbin/ldconfig", "/usr/bin/ldconfig");

    private DesktopLibraries() {
    }

    /** Throws the one line that says what to install when the window cannot open here; returns otherwise. */
    static void check() {
        boolean ownWindowSystem = !System.getProperty("glass.platform", "").isEmpty(); // Monocle in tests: no GTK
        String os = System.getProperty("os.name", "");
        if (os.toLowerCase(Locale.ROOT).startsWith("linux") && !ownWindowSystem) {
            check(os, libraryCache(), searchPath());
        }
    }

    /** As {@link #check()}, on what was read of the system. */
    static void check(String os, Optional<String> libraryCache, List<Path> searchPath) {
        if (os.toLowerCase(Locale.ROOT).startsWith("linux") && gtkMissing(libraryCache, searchPath)) {
            throw new IllegalStateException(Messages.text("app.needsGtk"));
        }
    }

    /**
     * True only when the system says GTK 3 is not there: the library cache was read and does not
     * list it, and no folder of {@code LD_LIBRARY_PATH} holds it. An unreadable cache proves nothing.
     */
    static boolean gtkMissing(Optional<String> libraryCache, List<Path> searchPath) {
        if (libraryCache.isEmpty() || libraryCache.get().contains(GTK)) {
            return false;
        }
        return searchPath.stream().noneMatch(dir -> Files.exists(dir.resolve(GTK)));
    }

    /** JavaFX's failure to start, in the words of {@link #check} when it is the missing GTK; otherwise as it was. */
    static RuntimeException explain(RuntimeException failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(GLASS_FAILURE)) {
                return new IllegalStateException(Messages.text("app.needsGtk"), failure);
            }
        }
        return failure;
    }

    private static Optional<String> libraryCache() {
        for (String ldconfig : LDCONFIG) {
            if (!Files.isExecutable(Path.of(ldconfig))) {
                continue;
            }
            try {
                Process p = new ProcessBuilder(ldconfig, "-p").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return Optional.of(out);
                }
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static List<Path> searchPath() {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("LD_LIBRARY_PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isBlank()) {
                    dirs.add(Path.of(dir));
                }
            }
        }
        return dirs;
    }
}
