package org.copydesk.review.imports;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import org.copydesk.cli.Cli;
import org.copydesk.db.DatabaseConfigResolver;

/**
 * {@code copydesk import --watch DIR} in a JVM of its own, so a test can kill it with -9 half-way
 * through a file. Arguments: JDBC URL, user, password, folder.
 */
public final class WatchFolderProcess {

    private WatchFolderProcess() {
    }

    public static void main(String[] args) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, args[2]);
        int code = Cli.run(new String[] {"import", "--watch", args[3], "--interval", "200ms", "--db-url", args[0], "--db-user", args[1]},
                new PrintWriter(System.out, true), new PrintWriter(System.err, true), environment);
        System.exit(code);
    }
}
