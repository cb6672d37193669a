package org.copydesk.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.copydesk.testing.TestServer;

/**
 * A private MariaDB server from Debian's {@code mariadb-server} package (10.11), started by
 * {@code .ci/mariadb-debian.sh} in a folder of its own with performance_schema's statement
 * instruments and timers on: every statement inside a stored routine, with its time, lands in
 * {@code events_statements_history_long}. The embedded server cannot take these options (its command
 * line is fixed), and performance_schema can only be turned on when a server starts.
 */
final class ProfiledMariaDb implements AutoCloseable {

    /** The account the script creates (every privilege), and its connection parameters. */
    private static final String ADMIN = "copydesk_test";
    private static final String PARAMETERS = "sslMode=DISABLED&allowPublicKeyRetrieval=true";

    private final Path script;
    private final Path folder;
    private final TestServer.Endpoint endpoint;

    private ProfiledMariaDb(Path script, Path folder, TestServer.Endpoint endpoint) {
        this.script = script;
        this.folder = folder;
        this.endpoint = endpoint;
    }

    /**
     * Starts the server in {@code folder} (initialising its data the first time) with room for
     * {@code historyRows} statements in the history, and returns once it takes connections.
     */
    static ProfiledMariaDb start(Path repository, Path folder, int historyRows) throws IOException, InterruptedException {
        Path script = repository.resolve(".ci/mariadb-debian.sh");
        String options = String.join(" ", List.of(
                "--performance-schema=ON",
                "--performance-schema-instrument=statement/%=ON",
                "--performance-schema-consumer-events-statements-current=ON",
                "--performance-schema-consumer-events-statements-history-long=ON",
                "--performance-schema-events-statements-history-long-size=" + historyRows,
                // a statement's first 512 characters name it; the digest is not needed
                "--performance-schema-max-sql-text-length=512",
                "--performance-schema-max-digest-length=256",
                "--innodb-buffer-pool-size=256M",
                "--innodb-flush-log-at-trx-commit=2",
                "--default-time-zone=+00:00"));
        run(script, folder, options, "stop"); // a server left by an earlier run had other options
        run(script, folder, options, "start");
        int port = Integer.parseInt(Files.readString(folder.resolve("port"), StandardCharsets.US_ASCII).trim());
        String password = Files.readString(folder.resolve("password"), StandardCharsets.US_ASCII).trim();
        return new ProfiledMariaDb(script, folder, new TestServer.Endpoint("mariadb", "127.0.0.1", port, ADMIN, password,
                PARAMETERS));
    }

    TestServer.Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(script, folder, "", "stop");
    }

    private static void run(Path script, Path folder, String options, String command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("COPYDESK_MARIADB_DIR", folder.toAbsolutePath().toString());
        builder.environment().put("COPYDESK_MARIADB_ARGS", options);
        int exit = builder.start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException(script + " " + command + " failed (exit " + exit + "); its log: "
                    + folder.resolve("error.log"));
        }
    }
}
