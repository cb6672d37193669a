package org.copydesk.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.DataSources;
import org.copydesk.testing.TestServer;

/**
 * The three-node cluster {@code .ci/galera-cluster.sh} started, as its {@code env} command
 * describes it: node addresses, the test account, and the script to kill and restart a node with.
 */
record GaleraCluster(List<String> nodes, String user, String password, Path script) {

    static final String URL_ENV = "COPYDESK_GALERA_URL";

    /** The cluster the environment names, if any. */
    static Optional<GaleraCluster> fromEnvironment(Map<String, String> env) {
        String url = env.get(URL_ENV);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        String authority = url.replaceFirst("^jdbc:mysql://", "").replaceFirst("/.*$", "");
        List<String> nodes = List.of(authority.split(","));
        if (DataSources.hosts(url).size() != nodes.size()) {
            throw new IllegalArgumentException(URL_ENV + " is not a jdbc:mysql:// URL: " + url);
        }
        return Optional.of(new GaleraCluster(nodes, env.getOrDefault("COPYDESK_GALERA_USER", "copydesk_test"),
                env.getOrDefault("COPYDESK_GALERA_PASSWORD", ""), Path.of(".ci/galera-cluster.sh")));
    }

    /**
     * A URL listing every node, starting with {@code first} (1-based) and going round: each
     * client's failover order. Node {@code first} alone with {@code alone}.
     */
    String url(String database, int first, boolean alone) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < (alone ? 1 : nodes.size()); i++) {
            order.add(nodes.get((first - 1 + i) % nodes.size()));
        }
        return "jdbc:mysql://" + String.join(",", order) + "/" + database + "?sslMode=DISABLED";
    }

    /** A connection to node {@code node} (1-based) whose reads wait until the node has applied every write committed before them. */
    Connection connect(int node, String database) throws SQLException {
        String[] hostPort = nodes.get(node - 1).split(":");
        Connection c = new TestServer.Endpoint("galera node " + node, hostPort[0], Integer.parseInt(hostPort[1]), user, password,
                "sslMode=DISABLED").adminConnection();
        if (!database.isEmpty()) {
            c.setCatalog(database);
        }
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION wsrep_sync_wait = 1");
        }
        return c;
    }

    void createDatabase(String name) throws SQLException {
        try (Connection c = connect(1, ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + name + "`");
            s.execute("CREATE DATABASE `" + name + "`");
        }
    }

    void dropDatabase(String name) throws SQLException {
        try (Connection c = connect(1, ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /** The nodes whose server process runs (by their pid files under the cluster's folder). */
    List<Integer> running() {
        Path dir = Path.of(System.getenv().getOrDefault("COPYDESK_GALERA_DIR", "target/galera"));
        List<Integer> up = new ArrayList<>();
        for (int n = 1; n <= nodes.size(); n++) {
            try {
                long pid = Long.parseLong(Files.readString(dir.resolve("node" + n).resolve("mysqld.pid")).strip());
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    up.add(n);
                }
            } catch (IOException | NumberFormatException e) {
                // no pid file: not running
            }
        }
        return up;
    }

    /** SIGKILLs node {@code n}: a host dying, with no goodbye to clients or to the other nodes. */
    void kill(int n) {
        script("kill", n);
    }

    /** Starts node {@code n} again; returns once it has caught up with the cluster. */
    void restart(int n) {
        script("start-node", n);
    }

    private void script(String command, int n) {
        try {
            Process p = new ProcessBuilder(script.toString(), command, String.valueOf(n)).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(240, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(script + " " + command + " " + n + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + script + " (is the working directory the checkout?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Writes a report beside the cluster's data (target/galera by default). */
    static void writeReport(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
