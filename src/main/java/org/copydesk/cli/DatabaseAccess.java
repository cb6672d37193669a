package org.copydesk.cli;

import java.nio.file.Path;
import java.time.Duration;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.outcomes.OutcomeServices;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How a command reaches the database, chosen once per command ({@link DatabaseCommand}): what it
 * opens with the account its {@link DatabaseOptions} name, and what it refuses before any work.
 * These are the only places the command line opens a database.
 *
 * @param <D> what the command works through; closed by the frame
 */
@FunctionalInterface
interface DatabaseAccess<D extends AutoCloseable> {

    D open(DatabaseOptions options, CommandSpec command);

    /**
     * How long a command's operation that is safe to repeat (a claim, a decision) is tried again
     * after its connection was lost: long enough for a server restart, after which the command says
     * so in one line.
     */
    Duration RECONNECT_FOR = Duration.ofSeconds(20);

    /** A person's work that changes things: starts the embedded server when it is the database chosen. */
    DatabaseAccess<ReviewSession> WORK = (options, command) -> work(options, ReviewSession.Options.defaults().releaseInterval());

    /**
     * For commands that read (or only mark rows, as relay retry): never starts the embedded server
     * (it would be left running, and an empty one has nothing to show); when it is the database
     * chosen and it does not run, the command fails saying so.
     */
    DatabaseAccess<ReviewSession> RUNNING_ONLY = (options, command) -> ReviewSession.open(running(options), AppDirectories.forCurrentUser(),
            DataSources.PoolSize.of(2), new ReviewSession.Options(null, ReviewSession.Options.defaults().releaseInterval()));

    /**
     * The outcome feed and relay, for any account (an integration account included): never starts
     * a server, and neither migrates nor validates the schema.
     */
    DatabaseAccess<OutcomeServices> OUTCOMES = (options, command) -> OutcomeServices.open(running(options),
            AppDirectories.forCurrentUser(), 2);

    /**
     * The database as the account finds it, schema untouched and the account not judged: for a
     * command whose work is to say what is wrong with both (one connection is enough).
     */
    DatabaseAccess<Database> AS_IT_IS = (options, command) -> Database.open(options.resolveForCommand(), AppDirectories.forCurrentUser(),
            DataSources.PoolSize.of(1), Database.SchemaAction.NONE);

    /** {@link #WORK} with the interval at which the session's release service frees expired leases. */
    static ReviewSession work(DatabaseOptions options, Duration releaseInterval) {
        return ReviewSession.open(options.resolveForCommand(), AppDirectories.forCurrentUser(), DataSources.PoolSize.of(2),
                new ReviewSession.Options(null, releaseInterval, RECONNECT_FOR));
    }

    /**
     * The database's owner (the account that created it, with CREATE USER), schema untouched:
     * anyone else is refused before anything is done, in words that name the command and its task.
     *
     * @param task what only the owner may do, as the refusal says it: "migrate the schema", "back it up"
     */
    static DatabaseAccess<Database> owner(String task) {
        return (options, command) -> {
            Database db = Database.open(options.resolveForCommand(), AppDirectories.forCurrentUser(), DataSources.PoolSize.of(2),
                    Database.SchemaAction.NONE);
            try {
                AccountAdministration.of(db).whyNotTheOwner().ifPresent(reason -> {
                    throw new Cli.CommandFailure(reason.replace("migrate the schema", task)
                            .replace("copydesk db migrate", command.qualifiedName(" ")));
                });
                return db;
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
        };
    }

    private static DatabaseConfig running(DatabaseOptions options) {
        DatabaseConfig config = options.resolveForCommand();
        Path folder = AppDirectories.forCurrentUser().embeddedServer();
        if (config.isEmbedded() && EmbeddedServer.findRunning(folder).isEmpty()) {
            // the client package cannot run a server: tell how to name the newsroom's instead
            throw new Cli.CommandFailure(EmbeddedServer.unavailable(folder).orElse(
                    "No Copydesk server is running on this computer, and this command does not start one."
                    + " Start it with copydesk server (or open the app), or name your database with --db-url."));
        }
        return config;
    }
}
