package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.Record3;
import org.jooq.impl.DSL;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Editors racing through the database's operations with each claim strategy: threads in this JVM
 * and two worker processes, claiming with one-second leases, deciding, renewing, giving back,
 * walking away with leases held (threads) and dying with them (the processes are killed with
 * {@code destroyForcibly} while they hold leases), with release services sweeping behind them and
 * stale writes thrown in. Afterwards:
 * <ul>
 *   <li>no article was held by two editors at once and no stale write was accepted: the history is
 *       replayed row by row ({@link LeaseEventAudit}), and the workers count what was accepted;</li>
 *   <li>no decision was lost or made twice: every decision an editor was told was recorded is in
 *       the table once, no article has two, every decided article is approved;</li>
 *   <li>no deadlock or lock wait reached an editor: the calls were retried.</li>
 * </ul>
 * The threads claim in step (each round's claims start together), so claims meet head on. The size
 * is the smallest that still caught a double hold, in every run tried, with the take's fence taken
 * out of {@code claim_articles} (OPTIMISTIC, which has no lock behind it) or its locks and fence
 * both (every strategy): with four threads OPTIMISTIC's double holds went unseen in one run of three.
 * A decision's fence taken out of {@code decide_article} fails every strategy at once. No timing is
 * asserted.
 */
class OperationRaceTest extends OperationsFixture {

    private static final Logger log = LoggerFactory.getLogger(OperationRaceTest.class);

    static final int THREADS = 8;
    static final int PROCESSES = 2;
    static final int EDITORS_PER_PROCESS = 2;
    static final int ARTICLES = 600;
    /** How long the race goes on after the processes were killed: longer than a lease, so theirs lapse. */
    static final Duration AFTER_THE_KILL = OperationRaceWorker.LEASE.plusMillis(1000);

    OperationRaceTest(TestDatabase db) {
        super(db);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void racingEditorsAndKilledProcessesNeverShareAnArticleNorLoseOrRepeatADecision(ClaimStrategyKind strategy) throws Exception {
        long started = System.nanoTime();
        Newsroom newsroom = new Newsroom(dsl);
        List<String> threadEditors = editors(newsroom, "t", THREADS);
        List<List<String>> processEditors = new ArrayList<>();
        for (int p = 1; p <= PROCESSES; p++) {
            processEditors.add(editors(newsroom, "p" + p + "e", EDITORS_PER_PROCESS));
        }
        for (int priority = 1; priority <= 3; priority++) {
            Fixtures.articles(dsl, "news", ARTICLES / 3, priority, -60);
        }
        Path logs = Path.of(System.getProperty("java.io.tmpdir"), "operation-race-" + strategy.name().toLowerCase(Locale.ROOT));

        // the processes first, so that they hold leases by the time they are killed
        List<Process> processes = new ArrayList<>();
        List<Path> processLogs = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            Path out = logs.resolve("p" + (p + 1) + ".log");
            processLogs.add(out);
            processes.add(ChildJvm.start(OperationRaceProcess.class, List.of(db.url(), db.endpoint().user(),
                    db.endpoint().password().isEmpty() ? "-" : db.endpoint().password(), strategy.name(),
                    String.join(",", processEditors.get(p))), out));
        }
        for (int p = 0; p < PROCESSES; p++) {
            awaitHistory("claim", processEditors.get(p), 1, processes.get(p), processLogs.get(p));
        }
        long processesAtWork = System.nanoTime();

        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(strategy, Duration.ofMillis(100)));
        AtomicBoolean stop = new AtomicBoolean();
        OperationRaceWorker.Counters counters = new OperationRaceWorker.Counters();
        List<String> reports = Collections.synchronizedList(new ArrayList<>());
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        // the threads claim in step, so that every round's claims meet on the same articles
        CyclicBarrier inStep = new CyclicBarrier(THREADS);
        Runnable claimTogether = () -> {
            try {
                inStep.await(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (BrokenBarrierException | TimeoutException e) {
                inStep.reset(); // one worker was slow (or stopped): the next round meets again
            }
        };
        try (ReleaseService sweeper = session.releaseService(released -> { })) {
            sweeper.start();
            for (int i = 0; i < THREADS; i++) {
                Thread t = new Thread(new OperationRaceWorker(session, threadEditors.get(i), threadEditors.get((i + 1) % THREADS),
                        counters, stop, 5, reports::add, claimTogether), "race-" + threadEditors.get(i));
                t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
                t.start();
                workers.add(t);
            }
            List<Record3<Long, String, Long>> heldAtKill = new ArrayList<>();
            for (int p = 0; p < PROCESSES; p++) {
                awaitHistory("complete", processEditors.get(p), 2, processes.get(p), processLogs.get(p));
                heldAtKill.addAll(killWhileHolding(processes.get(p), processEditors.get(p)));
            }
            long killed = System.nanoTime();
            Thread.sleep(AFTER_THE_KILL.toMillis());
            stop.set(true);
            for (Thread t : workers) {
                t.join(30_000);
            }
            assertThat(workers).as("workers stopped").noneMatch(Thread::isAlive);

            List<String> processReports = new ArrayList<>();
            for (Path out : processLogs) {
                processReports.addAll(Files.readAllLines(out));
            }
            LeaseEventAudit.Report audit = LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE, e -> false,
                    e -> !LeaseEventAudit.LEASE_ACTIONS.contains(e.getAction()));
            long expiredAfterKill = heldAtKill.stream().filter(this::endedByExpiry).count();
            log.info("{} race: {}; {} history rows, {} claims, {} take-overs, {} sweeps of lapsed leases; {} leases held at the"
                            + " kill, {} of them lapsed; retries: {}; processes at work after {} ms, killed {} ms later", strategy,
                    counters, audit.events(), audit.claims(), audit.takeOvers(), audit.sweptExpiries(), heldAtKill.size(),
                    expiredAfterKill, session.retryMetrics().retries(), (processesAtWork - started) / 1_000_000,
                    (killed - processesAtWork) / 1_000_000);

            // nothing reached an editor but what the services promise
            assertThat(failures).as("errors that reached the racing editors").isEmpty();
            assertThat(processReports).as("errors and stale writes in the worker processes")
                    .noneMatch(l -> l.startsWith("STALE-ACCEPTED") || l.contains("Exception in thread"));
            // no article held by two at once, no write under a stale lease (the history replayed row by row)
            assertThat(audit.violations()).as("history replay").isEmpty();
            assertThat(counters.staleAttempts.sum()).as("stale writes tried").isPositive();
            assertThat(counters.staleAccepted.sum()).as("stale writes accepted").isZero();
            assertThat(reports).noneMatch(r -> r.startsWith("STALE-ACCEPTED"));
            // no decision lost, none made twice
            List<String> recorded = new ArrayList<>();
            reports.stream().filter(r -> r.startsWith("RECORDED ")).map(r -> r.substring(9)).forEach(recorded::add);
            processReports.stream().filter(r -> r.startsWith("RECORDED ")).map(r -> r.substring(9)).forEach(recorded::add);
            Set<String> stored = Set.copyOf(dsl.select(DECISION.REQUEST_ID).from(DECISION).fetch(DECISION.REQUEST_ID));
            assertThat(stored).as("every decision an editor was told was recorded").containsAll(recorded);
            assertThat(dsl.fetchCount(DECISION, DECISION.EDITOR_ID.in(threadEditors))).as("the threads' decisions, all told")
                    .isEqualTo(counters.decided.intValue());
            assertThat(dsl.select(DECISION.ARTICLE_ID).from(DECISION).groupBy(DECISION.ARTICLE_ID).having(DSL.count().gt(1)).fetch())
                    .as("articles decided twice").isEmpty();
            assertThat(dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.approved)))
                    .isEqualTo(dsl.fetchCount(DECISION)).isEqualTo(audit.completesPerRow().values().stream().mapToInt(i -> i).sum());
            assertThat(audit.completesPerRow().values()).as("decisions per article").allMatch(n -> n <= 1);
            // the race did what it says: editors died, killed processes' leases lapsed and were taken over or swept
            assertThat(counters.decided.sum()).isPositive();
            assertThat(counters.deaths.sum()).as("editors who walked away").isPositive();
            assertThat(heldAtKill).as("leases the processes held when killed").isNotEmpty();
            assertThat(expiredAfterKill).as("of those, ended by expiry").isPositive();
        } finally {
            stop.set(true);
            processes.forEach(Process::destroyForcibly);
        }
    }

    private static List<String> editors(Newsroom newsroom, String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add("race_" + prefix + i);
            newsroom.addEditor("race_" + prefix + i, "Racer " + prefix + i, Role.EDITOR, 5, List.of("news"));
        }
        return ids;
    }

    private void awaitHistory(String action, List<String> editors, int atLeast, Process process, Path processLog) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq(action).and(LEASE_EVENT.ACTOR.in(editors))) < atLeast) {
            if (!process.isAlive() || System.nanoTime() > until) {
                throw new AssertionError("worker process " + editors + " did not " + action + " (alive: " + process.isAlive()
                        + "):\n" + (Files.exists(processLog) ? Files.readString(processLog) : ""));
            }
            Thread.sleep(20);
        }
    }

    /** Kills the process at a moment its editors hold valid leases; returns those leases (article, owner, token). */
    private List<Record3<Long, String, Long>> killWhileHolding(Process process, List<String> editors) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<Record3<Long, String, Long>> held = List.of();
        while (held.isEmpty() && process.isAlive() && System.nanoTime() < until) {
            held = dsl.select(ARTICLE.ID, ARTICLE.LOCKED_BY, ARTICLE.LEASE_TOKEN).from(ARTICLE)
                    .where(ARTICLE.LOCKED_BY.in(editors)).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now())).fetch();
        }
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return held;
    }

    /** Whether this lease ended by running out (swept, or taken over by a claim) rather than by its holder. */
    private boolean endedByExpiry(Record3<Long, String, Long> lease) {
        return dsl.fetchExists(LEASE_EVENT, LEASE_EVENT.ROW_KEY.eq(String.valueOf(lease.value1()))
                .and(LEASE_EVENT.OLD_OWNER.eq(lease.value2())).and(LEASE_EVENT.OLD_TOKEN.eq(lease.value3()))
                .and(LEASE_EVENT.ACTION.eq(HistoryAction.EXPIRE.code())));
    }
}
