package org.copydesk.db;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A second Copydesk process in miniature, run in its own JVM by {@link EmbeddedServerAttachTest}:
 * starts or attaches to the embedded server in the folder given as the first argument, reports
 * what it did, then obeys commands read from stdin one per line:
 * {@code query} (runs a statement on the server), {@code close} (detaches as the app does on exit),
 * {@code vanish} (exits without detaching, as a crashed or killed window would).
 *
 * <p>Every answer is one line starting with {@value #PREFIX}; the rest of stdout is log output.
 * It prints to stdout because stdout is its channel to the test, not a log.
 */
public final class EmbeddedServerProbe {

    static final String PREFIX = "PROBE ";

    private EmbeddedServerProbe() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(Path.of(args[0]), "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        say((server.startedHere() ? "started" : "attached") + " port=" + server.port() + " pid=" + server.serverPid()
                + " self=" + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            switch (line.trim()) {
                case "query" -> say("query " + query(server));
                case "close" -> {
                    server.close();
                    say("closed");
                    return;
                }
                case "vanish" -> {
                    say("vanishing");
                    Runtime.getRuntime().halt(0); // no shutdown hooks, no close(): the client file stays behind
                }
                default -> say("unknown " + line);
            }
        }
    }

    private static String query(EmbeddedServer server) {
        try (Connection c = RootSecret.rootConnection(server.folder(), "127.0.0.1", server.port(), 5);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 6 * 7")) {
            rs.next();
            return "ok " + rs.getInt(1);
        } catch (SQLException e) {
            return "failed " + e.getMessage().replace('\n', ' ');
        }
    }

    @SuppressWarnings("java:S106")
    private static void say(String message) {
        System.out.println(PREFIX + message);
        System.out.flush();
    }
}
