package org.copydesk.review;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.RetryMetrics;
import org.copydesk.lease.RetryPolicy;
import org.copydesk.lease.SessionAccount;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.outcomes.OutcomeFeed;
import org.copydesk.review.outcomes.OutcomeRetention;
import org.copydesk.review.outcomes.RelayState;
import org.jooq.DSLContext;

/**
 * A signed-in session: the newsroom's services as one database account (an editor, a supervisor,
 * an admin) sees them, built once by the composition root (the app's launcher or a CLI command)
 * and passed to whoever needs them. It hands out services, never its connection: screens and
 * commands reach no SQL through it (wall 9 in the tests' {@code Walls}); {@link #database()} is for
 * the tests and benchmarks that build fixtures.
 */
public final class ReviewSession implements AutoCloseable {

    /**
     * @param strategy        null: the best the server supports
     * @param releaseInterval how often the release service frees expired leases
     * @param reconnectFor    how long an operation that is safe to repeat is tried again on a fresh
     *                        connection after its connection was lost ({@link RetryPolicy}):
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
    private final DatabaseOperations operations;
    private final ReviewProcedures procedures;
    private final ArticleLeases leases;
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
        // a Galera node: certification conflicts are retried longer (docs/servers.md, "A Galera cluster")
        RetryPolicy retry = (capabilities.galera() ? RetryPolicy.galera() : RetryPolicy.defaults())
                .withReconnectFor(options.reconnectFor());
        ClaimStrategyKind strategy = options.strategy() != null ? options.strategy()
                : ClaimStrategyKind.bestFor(capabilities.supportsSkipLocked());
        DSLContext dsl = database.dsl();
        this.operations = new DatabaseOperations(dsl, retry);
        this.sessionUser = SessionAccount.name(dsl);
        this.newsroom = new Newsroom(dsl, operations);
        this.procedures = new ReviewProcedures(operations, strategy);
        this.leases = new ArticleLeases(dsl);
        this.queue = new ReviewQueue(dsl, leases, procedures, newsroom, sessionUser);
        this.decisions = new ReviewDecisions(procedures, queue, leases);
        this.drafts = new Drafts(dsl, procedures, sessionUser);
        this.history = new ArticleHistory(dsl);
        this.quarantine = new ArticleQuarantine(dsl, operations);
        this.supervision = new Supervision(dsl, procedures, newsroom, sessionUser);
        this.statistics = new QueueStatistics(dsl);
        this.auditLog = new AuditLog(dsl);
        this.importRejects = new ImportRejects(dsl, operations);
        this.listWatch = new ListWatch(dsl);
    }

    /**
     * Opens the configured database (starting or attaching to the embedded server when nothing is
     * configured), migrates or validates it, and on the embedded server keeps the accounts current.
     * Closing the services closes the database.
     */
    public static ReviewSession open(DatabaseConfig config, AppDirectories directories, DataSources.PoolSize poolSize,
                                      Options options) {
        Database database = Database.open(config, directories, poolSize, Database.SchemaAction.MIGRATE_OR_VALIDATE);
        try {
            ReviewSession session = new ReviewSession(database, options);
            if (config.isEmbedded()) {
                // a command never loads the demo (the desktop app's first run does, or copydesk server --demo)
                session.accounts().keepEmbeddedAccountsCurrent();
            }
            return session;
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
    public ReleaseService releaseService(Consumer<List<Lease>> onReleased) {
        return new ReleaseService(procedures, leases, new SessionSweep(operations, database.dsl()), options.releaseInterval(),
                onReleased);
    }

    /** The database account these services act as. */
    public String sessionUser() {
        return sessionUser;
    }

    /** The person signed in, if the account belongs to one (administrator accounts do not). */
    public Optional<Editor> signedInEditor() {
        return newsroom.editor(sessionUser);
    }

    /** An importer acting as this account (history names it). */
    public ArticleImporter importer() {
        return new ArticleImporter(database.dsl(), Clock.systemUTC());
    }

    public AccountAdministration accounts() {
        return new AccountAdministration(database.dsl(), operations);
    }

    public Database database() {
        return database;
    }

    /** How often this session's calls were retried (for benchmarks and cluster runs). */
    public RetryMetrics retryMetrics() {
        return operations.metrics();
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

    /** A supervisor's acts on the claim order of waiting articles: to the front, hold, let an editor have one again. */
    public QueueOverrides queueOverrides() {
        return new QueueOverrides(operations, sessionUser);
    }

    /** Desks' review chains: where an article is, the admin's stage set-up, a supervisor's move to another stage. */
    public ReviewStages stages() {
        return new ReviewStages(database.dsl(), operations, sessionUser);
    }

    /** The desks and stages a person may work and those they chose to take work from (docs/workflow.md). */
    public WorkChoices workChoices() {
        return new WorkChoices(database.dsl(), operations, sessionUser);
    }

    /** When articles are due: a supervisor's change of a due time, and what is due soon (docs/deadlines.md). */
    public DueTimes dueTimes() {
        return new DueTimes(database.dsl(), operations, sessionUser);
    }

    /** A supervisor's forecast of a desk's deadlines from its pace (docs/deadlines.md, "The forecast"). */
    public DeadlineForecast deadlineForecast() {
        return new DeadlineForecast(database.dsl(), operations);
    }

    /** How the desks did per day: the share decided in time, p50 and p90 from arrival (docs/deadlines.md, "How the desk did"). */
    public DeadlineReport deadlineReport() {
        return new DeadlineReport(database.dsl(), operations);
    }

    /** For the reviewer of a returned article: the sent-back revision, the notes, the word diff. */
    public ReturnedArticles returnedArticles() {
        return new ReturnedArticles(database.dsl());
    }

    /** The revision an editor holding an article reads, which a newer one does not replace under them. */
    public HeldRevisions heldRevisions() {
        return new HeldRevisions(database.dsl());
    }

    /** Articles sent back for changes, waiting for their writers. */
    public WaitingForWriters waitingForWriters() {
        return new WaitingForWriters(database.dsl());
    }

    /** One desk's queue as a supervisor reads it: waiting in claim order, scheduled, held, with writers. */
    public DeskQueue deskQueue() {
        return new DeskQueue(database.dsl());
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
    public RelayState relayState() {
        return new RelayState(database.dsl(), operations);
    }

    /** How long the outbox keeps outcomes (an admin's purge). */
    public OutcomeRetention outcomeRetention() {
        return new OutcomeRetention(database.dsl());
    }

    /** The feed of outcomes (approved, rejected, ...) in cursor order. */
    public OutcomeFeed outcomeFeed() {
        return new OutcomeFeed(database.dsl());
    }

    /** The editor's window's cheap "has anything changed?" read (see {@link ListWatch}). */
    public ListWatch listWatch() {
        return listWatch;
    }
}
