package org.copydesk.review;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.ConnectionProblems;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.ServerLocation;
import org.copydesk.lease.RetryPolicy;
import org.copydesk.lease.TransientErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a person gets from "Copydesk is starting" to their own services: every person signs in with
 * their own database account, so the database knows who acts and enforces the rules. On the
 * embedded server Copydesk first prepares the database as its administrator (schema, demo
 * newsroom, demo accounts) and then signs people in exactly as on a production server.
 */
public final class SignIn implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SignIn.class);

    private final String url;
    private final String sslMode;
    private final String suggestedUser;
    private final char[] configuredPassword;
    private final EmbeddedServer embeddedServer;
    /** How long a sign-in whose connection is cut is tried again; the desktop's sessions reconnect as long. */
    private final Duration reconnectFor;

    private SignIn(String url, String sslMode, String suggestedUser, char[] configuredPassword, EmbeddedServer embeddedServer) {
        this(url, sslMode, suggestedUser, configuredPassword, embeddedServer, ReviewSession.Options.DESKTOP_RECONNECT);
    }

    private SignIn(String url, String sslMode, String suggestedUser, char[] configuredPassword, EmbeddedServer embeddedServer,
                   Duration reconnectFor) {
        this.reconnectFor = reconnectFor;
        this.url = url;
        this.sslMode = sslMode;
        this.suggestedUser = suggestedUser == null ? "" : suggestedUser;
        this.configuredPassword = configuredPassword == null ? new char[0] : configuredPassword.clone();
        this.embeddedServer = embeddedServer;
    }

    /**
     * Gets ready to sign people in. For the embedded server this starts it (or attaches to it) and,
     * as its administrator, migrates the schema, loads the demo newsroom and its demo accounts.
     */
    public static SignIn prepare(DatabaseConfig config, AppDirectories directories) {
        if (!config.isEmbedded()) {
            return new SignIn(config.url(), config.sslMode(), config.user(), config.password(), null);
        }
        EmbeddedServer server = EmbeddedServer.startOrAttach(EmbeddedServer.Options.desktop(directories.embeddedServer()));
        try (Database admin = Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, server.rootPassword(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            Newsroom newsroom = new Newsroom(admin.dsl());
            DemoNewsroom.prepareEmbedded(admin.dsl(), newsroom, server.servesATeam());
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return new SignIn(server.userJdbcUrl(Database.EMBEDDED_SCHEMA), null, null, null, server);
    }

    /** Signs people in to a given URL (tests, tools). */
    public static SignIn to(String url, String suggestedUser) {
        return new SignIn(url, null, suggestedUser, null, null);
    }

    /** The same sign-in, trying a cut connection again for {@code duration} instead (tests). */
    public SignIn reconnectingFor(Duration duration) {
        return new SignIn(url, sslMode, suggestedUser, configuredPassword, embeddedServer, duration);
    }

    /** What signing in found: the person's own session, who they are, and the newsroom's desks. */
    public record Opened(ReviewSession session, Editor editor, List<Desk> desks) {
    }

    /** As {@link #signIn}, for callers that need the session only. */
    public ReviewSession open(String user, char[] password) {
        return signIn(user, password).session();
    }

    /**
     * Opens the person's own session and reads who they are and the desks. Refused, in plain words,
     * when the account is not one of the newsroom's people. A connection cut on the way (a killed
     * connection, a server restarting) is tried again as the rest of Copydesk tries again, for
     * {@link ReviewSession.Options#DESKTOP_RECONNECT}; when that does not help, one sentence says
     * whether the server could not be reached or kept cutting the connection.
     */
    public Opened signIn(String user, char[] password) {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException(Phrase.of("review.signIn.enterUserName").text());
        }
        String name = user.strip();
        // the retries the rest of the desktop app makes: conflicts, and a cut connection for as long as a session reconnects
        TransientErrors retries = new TransientErrors(RetryPolicy.defaults().withReconnectFor(reconnectFor));
        try {
            return retries.retrying("sign in", true, () -> attempt(name, password));
        } catch (RuntimeException e) {
            if (ConnectionProblems.connectionLost(e)) {
                throw ConnectionProblems.signInLost(location().jdbcUrl(), e, reconnectFor);
            }
            throw e;
        }
    }

    /** One try: a pool of the person's own, the schema checked, who they are and the desks read; nothing left open if it fails. */
    private Opened attempt(String user, char[] password) {
        Database database = null;
        try {
            database = Database.open(location(), user, password, sslMode, DataSources.PoolSize.desktop(),
                    Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
            ReviewSession session = new ReviewSession(database, ReviewSession.Options.defaults());
            Editor editor = session.signedInEditor()
                    .orElseThrow(() -> new DatabaseSetupException(Phrase.of("review.signIn.notAPerson", user).text()));
            List<Desk> desks = session.newsroom().desks();
            log.info("Signed in as {}", session.sessionUser());
            return new Opened(session, editor, desks);
        } catch (RuntimeException e) {
            if (database != null) {
                database.close();
            }
            throw ConnectionProblems.recognised(e); // a cut connection is tried again, whatever layer met it
        }
    }

    /** On the embedded server the pool follows the server if it comes back on another port. */
    private ServerLocation location() {
        return embeddedServer == null ? ServerLocation.fixed(url) : embeddedServer.userLocation(Database.EMBEDDED_SCHEMA);
    }

    public boolean embedded() {
        return embeddedServer != null;
    }

    /** The user name from the settings (command line, environment, config file), or empty. */
    public String suggestedUser() {
        return suggestedUser;
    }

    /** A password given in the environment or on the command line, if any. */
    public Optional<char[]> configuredPassword() {
        return configuredPassword.length == 0 ? Optional.empty() : Optional.of(configuredPassword.clone());
    }

    /**
     * On this computer's own embedded server (started by a desktop window): the demo accounts and how
     * their passwords are made. Not on a team's server (started by {@code copydesk server}), whose
     * people have their own accounts and which has no demo newsroom unless asked.
     */
    public List<String> demoAccounts() {
        return embedded() && embeddedServer.mode() == EmbeddedServer.Mode.DESKTOP ? DemoNewsroom.DEMO_ACCOUNTS : List.of();
    }

    public String where() {
        return embedded() ? Phrase.of("review.signIn.embedded").text() : url.replaceAll("\\?.*", "");
    }

    @Override
    public void close() {
        if (embeddedServer != null) {
            embeddedServer.close();
        }
    }
}
