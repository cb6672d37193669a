package org.copydesk.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Who uses an embedded server: {@code run/clients/PID}, one file per attached process, so that the
 * last desktop client to leave stops the server and a crashed one does not keep it up for ever.
 *
 * <p>Within one JVM several {@link EmbeddedServer} handles may be attached to the same folder (the
 * sign-in's and a command's, say); the process's file stays until the last of them closes, and one
 * shutdown hook for the whole JVM detaches whatever is still attached at exit (Ctrl-C, SIGTERM,
 * {@code System.exit}), however many times {@code startOrAttach} ran.
 */
final class ClientRegistry {

    private static final String START_PREFIX = "started=";

    /** Handles of this JVM still attached, by server folder. Guarded by the class. */
    private static final Map<Path, Set<EmbeddedServer>> ATTACHED = new HashMap<>();
    private static boolean hookInstalled;

    private final Path clients;

    ClientRegistry(Path folder) {
        this.clients = folder.resolve("run").resolve("clients");
    }

    /**
     * Writes this process's file. It names the process by pid and start time: a pid alone can be
     * reused, after a crash, by an unrelated process that would then keep the server up forever.
     */
    void register() throws IOException {
        Files.createDirectories(clients);
        ProcessHandle self = ProcessHandle.current();
        Files.writeString(clientFile(self.pid()), START_PREFIX + self.info().startInstant().map(Instant::toString).orElse("")
                + "\n" + self.info().commandLine().orElse(""));
    }

    void unregister() throws IOException {
        Files.deleteIfExists(clientFile(ProcessHandle.current().pid()));
    }

    /** Processes (other than this one) that are attached right now. */
    List<Long> others() {
        long self = ProcessHandle.current().pid();
        try (Stream<Path> files = Files.list(clients)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong)
                    .filter(pid -> pid != self && isRegisteredProcess(pid))
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Notes a handle of this JVM as attached, and makes sure the JVM detaches it at exit. */
    static synchronized void attachedInThisJvm(EmbeddedServer server) {
        ATTACHED.computeIfAbsent(server.folder(), f -> new LinkedHashSet<>()).add(server);
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(ClientRegistry::detachAll, "detach-embedded-server"));
            hookInstalled = true;
        }
    }

    /**
     * Forgets a handle; true when it was the last one of this JVM on its folder (the process file may
     * go). Handles whose server is gone count no more: one never closed after its server stopped
     * (e.g. by {@code copydesk server --stop}) must not keep this process a client of the next server
     * started in the folder; a handle that finds its server again registers anew.
     */
    static synchronized boolean lastInThisJvm(EmbeddedServer server) {
        Set<EmbeddedServer> handles = ATTACHED.get(server.folder());
        if (handles == null) {
            return true;
        }
        handles.remove(server);
        handles.removeIf(h -> !h.attachedToLiveServer());
        if (handles.isEmpty()) {
            ATTACHED.remove(server.folder());
            return true;
        }
        return false;
    }

    private static void detachAll() {
        List<EmbeddedServer> open;
        synchronized (ClientRegistry.class) {
            open = new ArrayList<>();
            ATTACHED.values().forEach(open::addAll);
        }
        open.forEach(EmbeddedServer::close);
    }

    private Path clientFile(long pid) {
        return clients.resolve(Long.toString(pid));
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
}
