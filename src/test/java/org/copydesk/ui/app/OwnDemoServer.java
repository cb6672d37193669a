package org.copydesk.ui.app;

import java.nio.file.Path;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.EmbeddedServerTestFolders;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.SignIn;

/**
 * An embedded server of a test's own, started from a fresh folder as the app starts it (demo
 * newsroom and accounts), with Ann signed in to it; {@link #close()} signs out and stops the server.
 */
final class OwnDemoServer implements AutoCloseable {

    private final Path home;
    private SignIn signIn;
    private ReviewSession ann;

    private OwnDemoServer(Path home) {
        this.home = home;
    }

    static OwnDemoServer start() {
        OwnDemoServer server = new OwnDemoServer(EmbeddedServerTestFolders.fresh());
        try {
            server.signIn = SignIn.prepare(DatabaseConfig.embedded(), new AppDirectories(server.home));
            server.ann = server.signIn.open("ann", "ann-demo".toCharArray());
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The app-data home whose embedded server this is ({@code copydesk.home} for an app that should use it). */
    Path home() {
        return home;
    }

    Path serverFolder() {
        return new AppDirectories(home).embeddedServer();
    }

    /** Ann's own session, as the app opens it when she signs in. */
    ReviewSession ann() {
        return ann;
    }

    @Override
    public void close() {
        if (ann != null) {
            ann.close();
        }
        if (signIn != null) {
            signIn.close();
        }
        EmbeddedServerTestFolders.stopLeftovers(serverFolder());
    }
}
