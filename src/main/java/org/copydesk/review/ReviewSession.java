package org.copydesk.review;

import java.time.Duration;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.LeaseEngine;

/**
 * A signed-in session: the newsroom's services as one database account (an editor, a supervisor,
 * an admin) sees them, built once by the composition root (the app's launcher or a CLI command)
 * and passed to whoever needs them. It hands out services, never its connection: screens and
 * commands reach no SQL through it (wall 9 in the tests' {@code Walls}); {@link #database()} and
 * {@link #engine()} are for the tests and benchmarks that build fixtures.
 */
public final class ReviewSession implements AutoCloseable {

    /**
     * @param strategy        null: the best the server supports
     * @param releaseInterval how often the release service frees expired leases
     * @param reconnectFor    how long an operation that is safe to repeat is tried again on a fresh
     *                        connection after its connection was lost ({@link org.copydesk.lease.RetryPolicy}):
     *                        10 s by default, enough for a killed connection or a cluster node's
     *                        failover (the cluster pauses commits for a few seconds while it
     *                        decides a node is gone), after which the desktop app shows that it is
     *                        offline and probes by itself; a command line waits longer (a server restarting)
     */
    public record Options(ClaimStrategyKind strategy, Duration releaseInterval, Duration reconnectFor) {
        public static final Duration DESKTOP_RECONNECT = Duration.ofSeconds(10);

        public Options(ClaimStrategyKind strategy, Duration releaseInterval) {
            this(strategy, releaseInterval, DESKTOP_RECONNECT);
        }

        public static Options defaults() {
            return new Options(null, Duration.ofSeconds(5));
        }
    }

    private final Database database;
    private final LeaseEngine engine;
    private final ReviewProcedures procedures;
    private final Newsroom newsroom;
    private final ReviewQueue queue;
    private final ReviewDecisions decisions;
    private final Drafts drafts;
    private final ArticleHistory history;
    private final ArticleQuarantine quarantine;
    private final Supervision supervision;
    private final QueueStatistics statistics;
    private final AuditLog auditLog;
    private final ImportRejects importRejects;
    private final ListWatch listWatch;
    private final Options options;
    private final String sessionUser;

    public ReviewSession(Database database, Options options) {
        this.database = database;
        this.options = options;
        var capabilities = database.capabilities();
        LeaseEngine.Options engineOptions = LeaseEngine.Options.defaults(capabilities.supportsSkipLocked());
        if (capabilities.galera()) {
            // a Galera node: certification conflicts are retried longer (docs/servers.md, "A Galera cluster")
            engineOptions = new LeaseEngine.Options(ClaimStrategyKind.bestFor(capabilities.supportsSkipLocked(), true),
                    engineOptions.isolation(), org.copydesk.lease.RetryPolicy.galera(), engineOptions.optimisticSpread(),
                    capabilities.supportsSkipLocked());
        }
        if (options.strategy() != null) {
            engineOptions = engineOptions.withStrategy(options.strategy());
        }
        engineOptions = new LeaseEngine.Options(engineOptions.strategy(), engineOptions.isolation(),
                engineOptions.retry().withReconnectFor(options.reconnectFor()), engineOptions.optimisticSpread(),
                engineOptions.serverSupportsSkipLocked());
        this.engine = new LeaseEngine(database.dsl(), ArticleLeases.TABLE, ArticleLeases.EVENTS, engineOptions);
        this.sessionUser = org.copydesk.lease.Owner.sessionUserName(database.dsl());
        this.newsroom = new Newsroom(database.dsl());
        this.procedures = new ReviewProcedures(database.dsl(), engine);
        this.queue = new ReviewQueue(database.dsl(), engine, procedures, newsroom, sessionUser);
        this.decisions = new ReviewDecisions(procedures, queue, engine);
        this.drafts = new Drafts(database.dsl(), procedures, sessionUser);
        this.history = new ArticleHistory(database.dsl());
        this.quarantine = new ArticleQuarantine(database.dsl());
        this.supervision = new Supervision(database.dsl(), procedures, newsroom, sessionUser);
        this.statistics = new QueueStatistics(database.dsl());
        this.auditLog = new AuditLog(database.dsl());
        this.importRejects = new ImportRejects(database.dsl());
        this.listWatch = new ListWatch(database.dsl());
    }

    /**
     * Opens the configured database (starting or attaching to the embedded server when nothing is
     * configured), migrates or validates it, and on an empty embedded database loads the demo
     * newsroom. Closing the services closes the database.
     */
    public static ReviewSession open(DatabaseConfig config, AppDirectories directories, DataSources.PoolSize poolSize,
                                      Options options) {
        Database database = Database.open(config, directories, poolSize, Database.SchemaAction.MIGRATE_OR_VALIDATE);
        try {
            ReviewSession services = new ReviewSession(database, options);
            if (config.isEmbedded()) {
                DemoNewsroom.prepareSingleComputerDemo(database.dsl(), services.newsroom());
            }
            return services;
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    @Override
    public void close() {
        database.close();
    }

    /**
     * A release service for this database, acting as the signed-in account (history names it); the
     * caller starts and closes it.
     */
    public ReleaseService releaseService(java.util.function.Consumer<java.util.List<org.copydesk.lease.Lease>> onReleased) {
        return new ReleaseService(procedures, new SessionSweep(database.dsl()), options.releaseInterval(), onReleased);
    }

    /** The database account these services act as. */
    public String sessionUser() {
        return sessionUser;
    }

    /** The person signed in, if the account belongs to one (administrator accounts do not). */
    public java.util.Optional<Editor> signedInEditor() {
        return newsroom.editor(sessionUser);
    }

    /** An importer acting as this account (history names it). */
    public org.copydesk.review.imports.ArticleImporter importer() {
        return new org.copydesk.review.imports.ArticleImporter(database.dsl(), java.time.Clock.systemUTC());
    }

    public AccountAdministration accounts() {
        return new AccountAdministration(database.dsl());
    }

    public Database database() {
        return database;
    }

    public LeaseEngine engine() {
        return engine;
    }

    public Newsroom newsroom() {
        return newsroom;
    }

    public ReviewQueue queue() {
        return queue;
    }

    public ReviewDecisions decisions() {
        return decisions;
    }

    public Drafts drafts() {
        return drafts;
    }

    public ArticleHistory history() {
        return history;
    }

    public ArticleQuarantine quarantine() {
        return quarantine;
    }

    public Supervision supervision() {
        return supervision;
    }

    /** For the reviewer of a returned article: the sent-back revision, the notes, the word diff (issue 13). */
    public ReturnedArticles returnedArticles() {
        return new ReturnedArticles(database.dsl());
    }

    /** The revision an editor holding an article reads, which a newer one does not replace under them (issue 13). */
    public HeldRevisions heldRevisions() {
        return new HeldRevisions(database.dsl());
    }

    /** Articles sent back for changes, waiting for their writers (issue 13). */
    public WaitingForWriters waitingForWriters() {
        return new WaitingForWriters(database.dsl());
    }

    public QueueStatistics statistics() {
        return statistics;
    }

    public AuditLog auditLog() {
        return auditLog;
    }

    public ImportRejects importRejects() {
        return importRejects;
    }

    /** The relay's delivery state and the retry of failed outcomes, for supervisors. */
    public org.copydesk.review.outcomes.RelayState relayState() {
        return new org.copydesk.review.outcomes.RelayState(database.dsl(), engine);
    }

    /** How long the outbox keeps outcomes (an admin's purge). */
    public org.copydesk.review.outcomes.OutcomeRetention outcomeRetention() {
        return new org.copydesk.review.outcomes.OutcomeRetention(database.dsl());
    }

    /** The feed of outcomes (approved, rejected, ...) in cursor order. */
    public org.copydesk.review.outcomes.OutcomeFeed outcomeFeed() {
        return new org.copydesk.review.outcomes.OutcomeFeed(database.dsl());
    }

    /** The editor's window's cheap "has anything changed?" read (see {@link ListWatch}). */
    public ListWatch listWatch() {
        return listWatch;
    }
}
