package org.copydesk.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.EmbeddedServerTestFolders;

/**
 * Runs {@code copydesk} commands in-process the way an admin on the server's computer runs them:
 * no database configured (the embedded server of a Copydesk home of the test's own), passwords
 * only in the environment.
 */
final class CommandRunner implements AutoCloseable {

    record Run(int code, String out, String err) {
    }

    private final Path home;
    private final String previousHome;

    private CommandRunner(Path home) {
        this.home = home;
        this.previousHome = System.getProperty(AppDirectories.HOME_PROPERTY);
        System.setProperty(AppDirectories.HOME_PROPERTY, home.toString());
    }

    /** A home with the server's binaries, no data and no server running; the JVM uses it until {@link #close}. */
    static CommandRunner freshHome() {
        return new CommandRunner(EmbeddedServerTestFolders.fresh());
    }

    AppDirectories dirs() {
        return new AppDirectories(home);
    }

    Path serverFolder() {
        return dirs().embeddedServer();
    }

    Run run(String... args) {
        return run(Map.of(), args);
    }

    Run run(Map<String, String> extraEnvironment, String... args) {
        return run(extraEnvironment, new StringWriter(), args);
    }

    private Run run(Map<String, String> extraEnvironment, Writer out, String... args) {
        StringWriter err = new StringWriter();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.remove(DatabaseConfigResolver.PASSWORD_ENV);
        environment.putAll(extraEnvironment);
        int code = Cli.run(args, new PrintWriter(out), new PrintWriter(err), environment);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * {@code copydesk server ARGS} in the background, returned once it says it serves ("Ctrl-C
     * stops it", printed after migrating and loading) or has ended.
     */
    CompletableFuture<Run> serve(String... args) throws InterruptedException {
        String[] all = new String[args.length + 1];
        all[0] = "server";
        System.arraycopy(args, 0, all, 1, args.length);
        StringWriter out = new StringWriter();
        CompletableFuture<Run> serving = CompletableFuture.supplyAsync(() -> run(Map.of(), out, all));
        long until = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (!serving.isDone() && System.nanoTime() < until && !said(out, "Ctrl-C stops it")) {
            Thread.sleep(100);
        }
        return serving;
    }

    private static boolean said(StringWriter out, String text) {
        synchronized (out.getBuffer()) {
            return out.getBuffer().indexOf(text) >= 0;
        }
    }

    Optional<EmbeddedServer> running() {
        return EmbeddedServer.findRunning(serverFolder());
    }

    @Override
    public void close() {
        EmbeddedServerTestFolders.stopLeftovers(serverFolder());
        if (previousHome == null) {
            System.clearProperty(AppDirectories.HOME_PROPERTY);
        } else {
            System.setProperty(AppDirectories.HOME_PROPERTY, previousHome);
        }
    }
}
