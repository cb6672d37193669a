package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.ServerCertificate;
import org.copydesk.review.DemoNewsroom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk server}: runs the embedded MariaDB in the foreground for a small team without a
 * MySQL server, until Ctrl-C; {@code --stop} stops a running one.
 */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Runs the embedded database server in the foreground until Ctrl-C.",
                "Desktop clients on this computer attach to it; others connect with --db-url."})
final class ServerCommand implements Callable<Integer> {

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE}, this computer only)")
    String bind;

    @Option(names = "--port", defaultValue = "0", description = "port (default: any free port)")
    int port;

    @Option(names = "--stop", description = "stop the running embedded server and exit")
    boolean stop;

    @Option(names = "--status", description = "say whether the embedded server runs, and where")
    boolean status;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        AppDirectories dirs = AppDirectories.forCurrentUser();
        if (stop || status) {
            var running = EmbeddedServer.findRunning(dirs.embeddedServer());
            if (running.isEmpty()) {
                out.println("The embedded server is not running (" + dirs.embeddedServer() + ").");
                return status ? 3 : 0;
            }
            if (status) {
                out.println("The embedded server runs on port " + running.get().port() + " (pid " + running.get().serverPid()
                        + ", started by " + running.get().mode().name().toLowerCase(java.util.Locale.ROOT) + ").");
                return 0;
            }
            running.get().shutdown();
            out.println("Stopped the embedded server.");
            return 0;
        }
        if (!EmbeddedServer.isLoopback(bind)) {
            List<String> demo = demoAccountsOnLoopback(dirs, out);
            if (demo == null) {
                return 1;
            }
            if (!demo.isEmpty()) {
                spec.commandLine().getErr().println("Copydesk will not listen on " + bind + " while these accounts still have "
                        + "their published demo passwords: " + String.join(", ", demo) + ". Give each a password of its own "
                        + "(copydesk editors set-password NAME --password) first.");
                return 1;
            }
        }
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(dirs.embeddedServer(), bind, port,
                EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(120)));
        if (!server.startedHere()) {
            out.println("The embedded server is already running on port " + server.port()
                    + "; stop the Copydesk windows using it (or run copydesk server --stop) first.");
            server.close();
            return 1;
        }
        try (Database db = Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            DemoNewsroom.loadIfEmpty(db);
        }
        out.println("Copydesk's embedded server is running on " + bind + ":" + server.port() + " with data in "
                + dirs.embeddedServer().resolve("data") + ".");
        if (server.certificate().isPresent()) {
            ServerCertificate certificate = server.certificate().get();
            out.println("It accepts TLS connections only. Its certificate's SHA-256 fingerprint is " + certificate.sha256Fingerprint() + ".");
            out.println("Give people " + certificate.truststore() + " (the certificate alone, nothing secret); they connect,");
            out.println("verifying the server, with --db-url '" + certificate.clientUrl(hostName(), server.port(), Database.EMBEDDED_SCHEMA)
                    .replace(certificate.truststore().toUri().toString(), "file:/path/to/copydesk-server.p12") + "'");
        } else {
            out.println("Others connect with --db-url jdbc:mysql://<this computer>:" + server.port() + "/copydesk.");
        }
        out.println("Ctrl-C stops it.");
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "stop-embedded-server"));
        // `copydesk server --stop` from another terminal stops the server process: end here too.
        ProcessHandle.of(server.serverPid()).ifPresent(p -> p.onExit().thenRun(stopped::countDown));
        stopped.await();
        server.close(); // detaches this process (the server is gone already)
        out.println("The embedded server has stopped.");
        return 0;
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "<this computer>";
        }
    }

    /**
     * Before listening beyond this computer: starts the server on loopback only and asks which demo
     * accounts still take their published passwords. Null (after saying why) if the server runs already.
     */
    private List<String> demoAccountsOnLoopback(AppDirectories dirs, PrintWriter out) {
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(dirs.embeddedServer(), "127.0.0.1", 0,
                EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(120)));
        try {
            if (!server.startedHere()) {
                out.println("The embedded server is already running on port " + server.port()
                        + "; stop the Copydesk windows using it (or run copydesk server --stop) first.");
                return null;
            }
            return DemoNewsroom.accountsStillOnDemoPasswords(server.userJdbcUrl(Database.EMBEDDED_SCHEMA));
        } finally {
            server.shutdown();
            server.close();
        }
    }
}
