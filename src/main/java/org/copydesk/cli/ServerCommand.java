package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.ServerCertificate;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DemoNewsroom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk server}: runs the embedded MariaDB in the foreground for a small team without a
 * MySQL server, until Ctrl-C or SIGTERM (a service manager's stop); {@code --stop} stops a running
 * one. A server left running by a {@code copydesk server} that died is adopted or restarted, so a
 * service manager's restart after a crash gets a server, not "already running".
 */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Runs the embedded database server in the foreground until Ctrl-C (or SIGTERM).",
                "Desktop clients on this computer attach to it; others connect with --db-url.",
                "Starts with an empty newsroom; --demo loads the demo newsroom into an empty database."})
final class ServerCommand implements Callable<Integer> {

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE}, this computer only)")
    String bind;

    @Option(names = "--port", defaultValue = "0", description = "port (default: any free port)")
    int port;

    @Option(names = "--stop", description = "stop the running embedded server and exit")
    boolean stop;

    @Option(names = "--status", description = "say whether the embedded server runs, and where (exit code 3 when it does not)")
    boolean status;

    @Option(names = "--wait", paramLabel = "DURATION", converter = Durations.class,
            description = "with --status: wait up to this long for the server to run (e.g. 2m; for services that need it)")
    Duration wait;

    @Option(names = "--demo", description = "load the demo newsroom (320 articles, 6 people with published demo passwords)"
            + " into an empty database; on this computer only")
    boolean demo;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        AppDirectories dirs = AppDirectories.forCurrentUser();
        if (stop || status) {
            return stopOrStatus(dirs, out);
        }
        if (!EmbeddedServer.carriesServerBinaries()) {
            // it would run whatever server binaries an earlier standalone install left in the home folder
            throw new Cli.CommandFailure("This Copydesk (the client package, copydesk) has no database server:"
                    + " copydesk server runs from the copydesk-standalone package (/opt/copydesk-standalone/bin/copydesk server).");
        }
        var outputPipe = OutputPipe.ofStandardOutput();
        if (!EmbeddedServer.isLoopback(bind)) {
            if (demo) {
                throw new Cli.CommandFailure("--demo makes accounts with published passwords: use it on this computer only"
                        + " (leave out --bind), never on a server others reach.");
            }
            List<String> demoAccounts = demoAccountsOnLoopback(dirs);
            if (!demoAccounts.isEmpty()) {
                throw new Cli.CommandFailure("Copydesk will not listen on " + bind + " while these accounts still have "
                        + "their published demo passwords: " + String.join(", ", demoAccounts) + ". Give each a password of its own "
                        + "(copydesk editors set-password NAME --password) or remove them (copydesk editors remove NAME) first.");
            }
        }
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(dirs.embeddedServer(), bind, port,
                EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(120)));
        if (!server.startedHere()) {
            String running = alreadyRunning(server);
            server.close();
            throw new Cli.CommandFailure(running);
        }
        server.markAsTeamServer();
        try (Database db = Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            if (demo) {
                out.println(DemoNewsroom.prepareSingleComputerDemo(db)
                        ? "Loaded the demo newsroom: sign in as ann, bob, cat, dan (editors), sue (supervisor) or admin;"
                                + " each password is the name followed by -demo."
                        : "The database is not empty: the demo newsroom was not loaded.");
            } else {
                AccountAdministration.of(db).keepEmbeddedAccountsCurrent();
            }
        }
        printWhereItListens(out, server, dirs);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "stop-embedded-server"));
        // `copydesk server --stop` from another terminal stops the server process: end here too.
        ProcessHandle.of(server.serverPid()).ifPresent(p -> p.onExit().thenRun(stopped::countDown));
        // nobody left to read its output (`copydesk server | head -1`): nobody left to stop it either;
        // the close() below stops the server this process started
        outputPipe.ifPresent(pipe -> pipe.whenReaderGone(stopped::countDown));
        stopped.await();
        boolean crashed = server.stoppedUnexpectedly();
        server.close(); // detaches this process (the server is gone already)
        if (crashed) {
            // non-zero, so that a service manager restarts it
            throw new Cli.CommandFailure("The embedded server stopped unexpectedly; its log is " + server.folder().resolve("server.log") + ".");
        }
        out.println("The embedded server has stopped.");
        return 0;
    }

    private int stopOrStatus(AppDirectories dirs, PrintWriter out) throws InterruptedException {
        if (status && wait != null) {
            // a service waiting for the team server: with another database configured there is none to wait for
            DatabaseConfig configured = new DatabaseConfigResolver(CopydeskCommand.environment(spec), dirs.configFile())
                    .resolve(DatabaseConfigResolver.CommandLine.none());
            if (!configured.isEmbedded()) {
                out.println("Copydesk is configured for the database at " + configured.url().replaceAll("\\?.*", "")
                        + "; there is no embedded server to wait for.");
                return 0;
            }
        }
        var running = EmbeddedServer.findRunning(dirs.embeddedServer());
        if (status && wait != null) {
            long until = System.nanoTime() + wait.toNanos();
            while (running.isEmpty() && System.nanoTime() < until) {
                Thread.sleep(500);
                running = EmbeddedServer.findRunning(dirs.embeddedServer());
            }
        }
        if (running.isEmpty()) {
            out.println("The embedded server is not running (" + dirs.embeddedServer() + ").");
            return status ? ExitCode.NOT_RUNNING.code() : ExitCode.OK.code();
        }
        if (status) {
            out.println("The embedded server runs on port " + running.get().port() + " (pid " + running.get().serverPid()
                    + ", started by " + (running.get().mode() == EmbeddedServer.Mode.FOREGROUND ? "copydesk server" : "a desktop window")
                    + ") with data in " + dirs.embeddedServer().resolve("data") + ".");
            return 0;
        }
        running.get().shutdown();
        out.println("Stopped the embedded server.");
        return 0;
    }

    private static String alreadyRunning(EmbeddedServer server) {
        return "The embedded server is already running on port " + server.port() + " (pid " + server.serverPid() + ", "
                + (server.mode() == EmbeddedServer.Mode.FOREGROUND ? "run by another copydesk server" : "used by Copydesk windows")
                + "); stop " + (server.mode() == EmbeddedServer.Mode.FOREGROUND ? "it" : "those windows")
                + " (or run copydesk server --stop) first.";
    }

    private void printWhereItListens(PrintWriter out, EmbeddedServer server, AppDirectories dirs) {
        out.println("Copydesk's embedded server is running on " + bind + ":" + server.port() + " with data in "
                + dirs.embeddedServer().resolve("data") + ".");
        if (server.certificate().isPresent()) {
            ServerCertificate certificate = server.certificate().get();
            out.println("It accepts TLS connections only. Its certificate's SHA-256 fingerprint is " + certificate.sha256Fingerprint() + ".");
            out.println("Give people " + certificate.truststore() + " (the certificate alone, nothing secret); they connect,");
            out.println("verifying the server, with --db-url '" + certificate.clientUrl(hostName(), server.port(), Database.EMBEDDED_SCHEMA)
                    .replace(certificate.truststore().toUri().toString(), "file:/path/to/copydesk-server.p12") + "'");
        } else if (EmbeddedServer.isLoopback(bind)) {
            // nobody else can reach a loopback address: say so, not an address that cannot be reached
            out.println("It listens on this computer only: programs here connect with --db-url jdbc:mysql://" + bind + ":" + server.port()
                    + "/copydesk; to serve other computers, start it with --bind and this computer's address (TLS only).");
        } else {
            out.println("Others connect with --db-url jdbc:mysql://" + bind + ":" + server.port() + "/copydesk.");
        }
        out.println("Ctrl-C stops it.");
        out.flush();
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
     * accounts still take their published passwords. Refused if the server runs already.
     */
    private List<String> demoAccountsOnLoopback(AppDirectories dirs) {
        java.util.Optional<EmbeddedServer> left = EmbeddedServer.findRunning(dirs.embeddedServer());
        if (left.isPresent()) {
            // a server already runs (one whose copydesk server was killed, to be adopted below; or another's,
            // refused below): ask it, rather than stop it to start a loopback one for the check
            return DemoNewsroom.accountsStillOnDemoPasswords(left.get().userJdbcUrl(Database.EMBEDDED_SCHEMA));
        }
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(dirs.embeddedServer(), "127.0.0.1", 0,
                EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(120)));
        try {
            if (!server.startedHere()) {
                throw new Cli.CommandFailure(alreadyRunning(server));
            }
            return DemoNewsroom.accountsStillOnDemoPasswords(server.userJdbcUrl(Database.EMBEDDED_SCHEMA));
        } finally {
            if (server.startedHere()) {
                server.shutdown(); // only the check's own server; never one that others use
            }
            server.close();
        }
    }
}
