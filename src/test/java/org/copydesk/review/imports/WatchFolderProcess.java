package org.copydesk.review.imports;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import org.copydesk.cli.Cli;
import org.copydesk.db.DatabaseConfigResolver;

/**
 * {@code copydesk import --watch DIR} in a JVM of its own, so a test can stop it as {@code kill -9}
 * would half-way through a file (with {@link ImportHook#HALT_AT_ROW} set on the JVM). Files are
 * renamed in whole, so it takes them at once (no quiet period). Arguments: JDBC URL, user,
 * password, folder.
 */
public final class WatchFolderProcess {

    private WatchFolderProcess() {
    }

    public static void main(String[] args) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, args[2]);
        int code = Cli.run(new String[] {"import", "--watch", args[3], "--interval", "200ms", "--quiet", "0s", "--db-url", args[0],
                "--db-user", args[1]},
                new PrintWriter(System.out, true), new PrintWriter(System.err, true), environment);
        System.exit(code);
    }
}
