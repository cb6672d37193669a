package org.copydesk.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.ArticleLeases;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many editors racing for the same queue on the real server: 32 threads in this JVM and two worker
 * processes, claiming, renewing, releasing, completing, dying with leases held (threads walk away,
 * processes are killed with {@code destroyForcibly}), with short leases and release services
 * sweeping behind them. Afterwards the event log is replayed ({@link LeaseEventAudit}) to prove
 * that no row was ever held by two owners at once and that no write under a stale lease was
 * accepted, and the table and log must show every row completed exactly once.
 *
 * <p>No timing is asserted; the deadline only turns a hang into a failure with a message.
 */
@ExtendWith(DatabaseExtension.class)
abstract class LeaseRaceTest {

    private static final Logger log = LoggerFactory.getLogger(LeaseRaceTest.class);

    static final int ROWS_PER_PRIORITY = 500;
    static final int PRIORITIES = 4;
    static final int THREADS = 32;
    static final int PROCESSES = 2;
    static final int THREADS_PER_PROCESS = 4;
    static final Duration DEADLINE = Duration.ofMinutes(4);

    final TestDatabase db;

    LeaseRaceTest(TestDatabase db) {
        this.db = db;
    }

    abstract ClaimStrategyKind strategy();

    @Test
    void racingThreadsAndKilledProcessesNeverShareARowNorWriteStaleAndCompleteEveryRowOnce() throws Exception {
        DSLContext setup = db.dsl();
        Fixtures.clear(setup);
        for (int priority = 1; priority <= PRIORITIES; priority++) {
            Fixtures.articles(setup, "news", ROWS_PER_PRIORITY, priority, -60);
        }
        int rows = ROWS_PER_PRIORITY * PRIORITIES;
        long started = System.nanoTime();
        Path logs = Path.of(System.getProperty("java.io.tmpdir"), "race-" + strategy().name().toLowerCase());

        try (Database database = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(),
                null, DataSources.PoolSize.of(THREADS + 4), Database.SchemaAction.NONE, null)) {
            DSLContext dsl = database.dsl();
            LeaseEngine engine = new LeaseEngine(dsl, ArticleLeases.TABLE, ArticleLeases.EVENTS,
                    LeaseEngine.Options.defaults(database.capabilities().supportsSkipLocked()).withStrategy(strategy()));

            // The processes start first so that they hold leases by the time they are killed.
            List<Process> processes = new ArrayList<>();
            List<Path> processLogs = new ArrayList<>();
            for (int p = 1; p <= PROCESSES; p++) {
                Path out = logs.resolve("p" + p + ".log");
                processLogs.add(out);
                processes.add(ChildJvm.start(RaceWorkerProcess.class, List.of(db.url(), db.endpoint().user(),
                        db.endpoint().password().isEmpty() ? "-" : db.endpoint().password(), strategy().name(),
                        "p" + p, Integer.toString(THREADS_PER_PROCESS)), out));
            }
            for (int p = 1; p <= PROCESSES; p++) {
                awaitEvents(dsl, "claim", "p" + p + "w%", 1, processes.get(p - 1), processLogs.get(p - 1));
            }

            AtomicBoolean stop = new AtomicBoolean();
            RaceWorker.Counters counters = new RaceWorker.Counters();
            List<String> staleReports = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread sweeper = new Thread(() -> sweep(engine, stop), "race-sweeper");
            sweeper.start();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Thread t = new Thread(new RaceWorker(engine, dsl, String.format("t%02d", i), counters, stop, 5,
                        staleReports::add), "race-t" + i);
                t.start();
                workers.add(t);
            }

            // Kill each process while it holds valid leases (it never gets to release them).
            List<Record3<Long, String, Long>> heldAtKill = new ArrayList<>();
            for (int p = 1; p <= PROCESSES; p++) {
                awaitEvents(dsl, "complete", "p" + p + "w%", 10, processes.get(p - 1), processLogs.get(p - 1));
                heldAtKill.addAll(killWhileHolding(dsl, processes.get(p - 1), "p" + p + "w%"));
            }

            long deadline = started + DEADLINE.toNanos();
            for (Thread t : workers) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            boolean finished = workers.stream().noneMatch(Thread::isAlive);
            stop.set(true);
            for (Thread t : workers) {
                t.join(10_000);
            }
            sweeper.join(10_000);
            long queued = dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.queued));
            assertThat(finished).as("workers finished the queue within %s (%d rows still queued; %s)", DEADLINE, queued,
                    counters).isTrue();

            LeaseEventAudit.Report audit = LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE);
            List<String> staleFromProcesses = new ArrayList<>();
            for (Path out : processLogs) {
                Files.readAllLines(out).stream().filter(l -> l.startsWith("STALE-ACCEPTED")).forEach(staleFromProcesses::add);
            }
            long expiredAfterKill = heldAtKill.stream().filter(h -> endedByExpiry(dsl, h)).count();
            log.info("{} race: {} rows in {} ms; {}; {} events, {} claims, {} take-overs, {} swept; {} leases held at kill, "
                            + "{} of them lapsed; metrics: {} transactions, {} retries ({} deadlocks, {} lock wait timeouts)",
                    strategy(), rows, (System.nanoTime() - started) / 1_000_000, counters, audit.events(), audit.claims(),
                    audit.takeOvers(), audit.sweptExpiries(), heldAtKill.size(), expiredAfterKill,
                    engine.metrics().transactions(), engine.metrics().retries(), engine.metrics().deadlocks(),
                    engine.metrics().lockWaitTimeouts());

            // No row held by two owners at once, no stale write accepted (the replay checks every event).
            assertThat(audit.violations()).as("event log violations").isEmpty();
            assertThat(counters.staleAttempts.sum()).as("stale writes tried").isPositive();
            assertThat(counters.staleAccepted.sum()).as("stale writes accepted here").isZero();
            assertThat(staleReports).isEmpty();
            assertThat(staleFromProcesses).as("stale writes accepted in the worker processes").isEmpty();

            // Every row completed exactly once, by the log and by the table.
            assertThat(audit.completesPerRow()).hasSize(rows);
            assertThat(audit.completesPerRow().entrySet().stream().filter(e -> e.getValue() != 1).map(Map.Entry::getKey)
                    .toList()).as("rows not completed exactly once").isEmpty();
            assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("complete"))).isEqualTo(rows);
            assertThat(dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.approved).and(ARTICLE.LOCKED_BY.isNull())))
                    .isEqualTo(rows);
            assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(rows);

            // The race did what it claims to: owners died and their leases lapsed and were taken over.
            assertThat(counters.deaths.sum()).as("thread deaths").isPositive();
            assertThat(heldAtKill).as("leases held by the processes when they were killed").isNotEmpty();
            assertThat(expiredAfterKill).as("killed processes' leases that lapsed").isPositive();
            assertThat(audit.takeOvers() + audit.sweptExpiries()).isPositive();
        }
    }

    /** The release service: frees lapsed leases in small batches, as the app's service does. */
    private static void sweep(LeaseEngine engine, AtomicBoolean stop) {
        while (!stop.get()) {
            try {
                engine.releaseExpired(50, 4, "race-sweeper");
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (DatabaseBusyException e) {
                // the next round tries again
            }
        }
    }

    private static void awaitEvents(DSLContext dsl, String action, String ownerPattern, int atLeast, Process process,
                                    Path processLog) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq(action).and(LEASE_EVENT.ACTOR.like(ownerPattern))) < atLeast) {
            if (!process.isAlive() || System.nanoTime() > until) {
                throw new AssertionError("worker process " + ownerPattern + " did not " + action + " (alive: "
                        + process.isAlive() + "):\n" + (Files.exists(processLog) ? Files.readString(processLog) : ""));
            }
            Thread.sleep(20);
        }
    }

    /** Kills the process at a moment it holds valid leases; returns those leases (id, owner, token). */
    private static List<Record3<Long, String, Long>> killWhileHolding(DSLContext dsl, Process process, String ownerPattern)
            throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<Record3<Long, String, Long>> held = List.of();
        while (held.isEmpty() && process.isAlive() && System.nanoTime() < until) {
            held = dsl.select(ARTICLE.ID, ARTICLE.LOCKED_BY, ARTICLE.LEASE_TOKEN).from(ARTICLE)
                    .where(ARTICLE.LOCKED_BY.like(ownerPattern)).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now())).fetch();
        }
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return held;
    }

    /** Whether this lease ended by expiring (swept or taken over) rather than by its holder. */
    private static boolean endedByExpiry(DSLContext dsl, Record3<Long, String, Long> lease) {
        return dsl.fetchExists(LEASE_EVENT, LEASE_EVENT.ROW_KEY.eq(String.valueOf(lease.value1()))
                .and(LEASE_EVENT.OLD_OWNER.eq(lease.value2())).and(LEASE_EVENT.OLD_TOKEN.eq(lease.value3()))
                .and(LEASE_EVENT.ACTION.eq("expire")));
    }
}
