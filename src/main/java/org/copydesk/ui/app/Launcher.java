package org.copydesk.ui.app;

import org.copydesk.cli.Cli;
import org.copydesk.db.DatabaseConfig;

/**
 * The main class. With a command it runs the command line; without one it opens the desktop app.
 * (It must not extend {@code Application}: with JavaFX on the class path the launcher would
 * otherwise insist on JavaFX modules.)
 */
public final class Launcher {

    private Launcher() {
    }

    public static void main(String[] args) {
        // Returns when the command (or the app) has finished; exit also stops non-daemon threads.
        System.exit(Cli.runOnConsole(args, Launcher::openDesktop));
    }

    /**
     * The desktop app, after checking that this system can show its window; what is missing is
     * said in one line (the command line prints it and exits with 1).
     */
    static void openDesktop(DatabaseConfig config) {
        DesktopLibraries.check();
        try {
            CopydeskApp.launchWith(config);
        } catch (RuntimeException e) {
            throw DesktopLibraries.explain(e);
        }
    }
}
