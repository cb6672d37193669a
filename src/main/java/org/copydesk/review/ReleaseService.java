package org.copydesk.review;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.copydesk.lease.Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees expired leases every few seconds so other editors get the work, recording each as an
 * expiry in the article's history. Runs in every desktop client and as {@code copydesk
 * release-daemon}; every interval each asks the database for the newsroom's sweep turn
 * ({@link #runTurn()}), which one caller per interval gets and sweeps with in the same call, so a
 * newsroom of N clients sweeps once per interval, not N times (the sweep reads the server's process
 * list, whose cost grows with N). A newsroom of more than twenty clients also asks less often: each
 * answer says how long this client should wait before its next call ({@link #pause}), so that the
 * newsroom's clients between them call about twenty times per interval, each at least once a
 * minute at the house's interval ({@code take_sweep_turn} counts the accounts that call). Several
 * sweeps at once are still harmless: releasers skip rows another has locked. History names the
 * signed-in account as the one who freed them: the database decides, not this class.
 *
 * <p><b>The bound it keeps:</b> a lease that lapses is freed by a sweep that <em>starts</em> within
 * one interval of its expiry as long as any client runs (a turn, once taken, is due again three
 * quarters of an interval later, so the next tick of any client finds it due; in a newsroom of
 * more than twenty clients, the next of the twenty or so calls per interval between them, which
 * comes later than a quarter of an interval after the turn fell due about once in 150 turns), and
 * is free once that sweep's chunk commits: within {@code interval + one sweep's duration} of its
 * expiry (plus however long the operating system keeps this thread waiting for a core). Ticks start
 * at a fixed rate, not a fixed delay after the previous one ended (which let a slow sweep push the
 * next one back, and with it every lease that lapsed meanwhile: interval + two sweeps); a sweep
 * that overruns its interval is followed at once by the next. A chunk that comes back short while
 * lapsed leases remain (rows a claim's scan had locked for a moment, which the sweep's
 * {@code SKIP LOCKED} passes over) is followed by another 25 ms later, for at most half an
 * interval, so those too are freed by this sweep rather than the next (ReleaseServiceBoundTest: 9
 * of 60 leases came later than the interval before this, 0 after). The first sweep starts at a
 * random point of the first interval, so clients started together (after a server restart) do not
 * sweep in step. {@link #longestSweep()} says what "one sweep's duration" has been. Nobody waits on
 * the sweep for work: a claim takes over a lapsed lease by itself; the sweep records the expiry and
 * shows the article as free on dashboards.
 */
public final class ReleaseService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseService.class);

    /**
     * Chunk size and pacing as measured in docs/benchmarks.md ("batches of 100, paced"): each chunk
     * a short transaction that locks few rows, and a rest as long as the chunk took, so a large
     * backlog costs the editors' claims on a busy server little. Nothing waits on the sweep: a
     * claim takes over a lapsed lease by itself.
     */
    static final int BATCH = 100;
    /** Chunks per run, at most: a run ends within a bounded time however large the backlog. */
    static final int MAX_BATCHES_PER_RUN = 1_000;

    /** The pause before looking again for lapsed rows a chunk skipped because they were locked. */
    static final Duration LOOK_AGAIN_AFTER = Duration.ofMillis(25);

    private final ReviewProcedures procedures;
    private final ArticleLeases leases;
    private final SessionSweep sessions;
    private final Duration interval;
    private final Consumer<List<Lease>> onReleased;
    private ScheduledExecutorService scheduler;
    private volatile boolean failing;
    private volatile Duration longestSweep = Duration.ZERO;
    /** The pause before the next scheduled call, as the last turn's answer asked ({@link #pause}). */
    private volatile Duration nextCallAfter;
    private volatile boolean followsPace = true;

    ReleaseService(ReviewProcedures procedures, ArticleLeases leases, SessionSweep sessions, Duration interval,
                   Consumer<List<Lease>> onReleased) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(Phrase.of("review.releaseService.intervalPositive").text());
        }
        this.procedures = procedures;
        this.leases = leases;
        this.sessions = sessions;
        this.interval = interval;
        this.onReleased = onReleased;
        this.nextCallAfter = interval;
    }

    /** Starts the ticks, paced as the database asks: the desktop client's. */
    public void start() {
        start(true);
    }

    /**
     * Starts the ticks, one every interval whatever the database asks ({@code copydesk
     * release-daemon}: one process whose call every interval keeps the sweep's bound whatever the
     * clients do).
     */
    public void startEveryInterval() {
        start(false);
    }

    private synchronized void start(boolean paced) {
        if (scheduler != null) {
            return;
        }
        followsPace = paced;
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "copydesk-release-service");
            t.setDaemon(true);
            return t;
        });
        long firstAfter = ThreadLocalRandom.current().nextLong(Math.max(1, interval.toMillis()));
        scheduler.schedule(this::tick, firstAfter, TimeUnit.MILLISECONDS);
    }

    /**
     * One scheduled tick, then the next one, counted from this one's start (a slow sweep does not
     * push the next back): one interval later, or later as the database asked ({@link #pause}).
     */
    private void tick() {
        long started = System.nanoTime();
        Duration next = runQuietly();
        long wait = Math.max(0, next.toNanos() - (System.nanoTime() - started));
        synchronized (this) {
            if (scheduler != null) {
                scheduler.schedule(this::tick, wait, TimeUnit.NANOSECONDS);
            }
        }
    }

    /**
     * The pause before the next call when the database asked for {@code asked}: the interval when it
     * asked for no more (a newsroom of up to twenty clients, or an answer without the figure);
     * otherwise a random pause between half and one and a half times what it asked, so that clients
     * that signed in together drift apart and the newsroom's calls stay spread over the interval.
     */
    Duration pause(Duration asked) {
        if (!followsPace || asked.compareTo(interval) <= 0) {
            return interval;
        }
        long askedNanos = asked.toNanos();
        return Duration.ofNanos(askedNanos / 2 + ThreadLocalRandom.current().nextLong(askedNanos));
    }

    /**
     * One whole sweep now, whoever else swept lately ({@code copydesk release-daemon --once}, tests):
     * ends what raw sessions hold that blocks others ({@link SessionSweep}), then frees every
     * expired lease, in paced chunks. Returns the leases it ended.
     */
    public List<Lease> runOnce() {
        return timed(() -> {
            try {
                sessions.runOnce();
            } catch (RuntimeException e) {
                // expired leases are freed all the same (a server without the owner's rights: copydesk doctor says so)
                log.debug("Ending stuck sessions failed: {}", e.toString());
            }
            return freeLapsed(new ArrayList<>(), System.nanoTime(), true);
        });
    }

    /**
     * The scheduled tick: asks for the newsroom's sweep turn ({@code take_sweep_turn}) and sweeps
     * only if it is this client's, so the newsroom sweeps once per interval, not once per client.
     * The turn's call itself ends stuck sessions and frees the first chunk; this goes on with the
     * paced chunks of a backlog. Turn or not, the call lists the prepared XA transactions, and this
     * client rolls back those left prepared too long ({@link SessionSweep#afterTurn}): whoever takes
     * the turns, every client does the XA half. Returns the leases it ended (none when not its turn).
     */
    public List<Lease> runTurn() {
        return timed(() -> {
            long started = System.nanoTime();
            SweepTurn turn = askForTurn();
            nextCallAfter = pause(turn.nextCallAfter());
            try {
                sessions.afterTurn(turn);
            } catch (RuntimeException e) {
                log.debug("Rolling back abandoned XA transactions failed: {}", e.toString());
            }
            if (turn.failure() != null) {
                throw new IllegalStateException("take_sweep_turn failed: " + turn.failure());
            }
            if (!turn.taken()) {
                return List.of();
            }
            return freeLapsed(new ArrayList<>(turn.released()), started, turn.released().size() >= BATCH);
        });
    }

    /**
     * Calls {@code take_sweep_turn}. Without an answer (the database away) the next call comes one
     * interval later; a call cut short because the service is closing changes nothing. An answer
     * that tells of a failed sweep still paces the next call: the turn stays due for the others.
     */
    private SweepTurn askForTurn() {
        try {
            return procedures.takeSweepTurn(interval);
        } catch (RuntimeException e) {
            if (!Thread.currentThread().isInterrupted()) {
                nextCallAfter = interval;
            }
            throw e;
        }
    }

    private List<Lease> timed(Supplier<List<Lease>> sweep) {
        long sweepStarted = System.nanoTime();
        try {
            return sweep.get();
        } finally {
            Duration took = Duration.ofNanos(System.nanoTime() - sweepStarted);
            if (took.compareTo(longestSweep) > 0) {
                longestSweep = took;
            }
        }
    }

    /**
     * Frees lapsed leases in paced chunks, after {@code released} (what the sweep freed already);
     * {@code chunkFull}: whether the last chunk was full, so the next one follows at once.
     */
    private List<Lease> freeLapsed(List<Lease> released, long sweepStarted, boolean chunkFull) {
        boolean goOn = chunkFull || lookAgain(sweepStarted);
        for (int batch = 0; goOn && batch < MAX_BATCHES_PER_RUN; batch++) {
            long started = System.nanoTime();
            List<Lease> chunk = procedures.releaseExpired(BATCH);
            released.addAll(chunk);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            goOn = chunk.size() < BATCH ? lookAgain(sweepStarted) : rest(took);
        }
        if (!released.isEmpty()) {
            log.info("Released {} expired lease(s)", released.size());
            onReleased.accept(released);
        }
        return released;
    }

    /**
     * After a short chunk: lapsed rows another session had locked for a moment were skipped. Looks
     * again shortly, within half an interval, rather than leaving them for the next sweep.
     */
    private boolean lookAgain(long sweepStarted) {
        boolean timeLeft = System.nanoTime() - sweepStarted < interval.toNanos() / 2;
        return timeLeft && leases.lapsedLeasesRemain() && rest(LOOK_AGAIN_AFTER);
    }

    /** Rests on this service's own thread; false when asked to stop. */
    private static boolean rest(Duration howLong) {
        try {
            Thread.sleep(Math.max(1, howLong.toMillis()));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs a turn and says how long to wait before the next ({@link #nextCallAfter}). What the last
     * answer asked stays readable while a call is under way: only the next answer, or a call that
     * got none, changes it.
     */
    private Duration runQuietly() {
        try {
            runTurn();
            if (failing) {
                failing = false;
                log.info("Release of expired leases works again");
            }
            return nextCallAfter;
        } catch (RuntimeException e) {
            // The database may be away for a while (the app shows that); one warning, not one a second.
            if (!failing) {
                failing = true;
                log.warn("Release of expired leases failed; retrying quietly: {}", e.toString());
            } else {
                log.debug("Release of expired leases failed again: {}", e.toString());
            }
            return nextCallAfter;
        }
    }

    public Duration interval() {
        return interval;
    }

    /** The pause before this service's next scheduled call, as the last answer asked for it. */
    Duration nextCallAfter() {
        return nextCallAfter;
    }

    /** The longest sweep so far: with the interval, the bound on how late a lapsed lease is freed. */
    public Duration longestSweep() {
        return longestSweep;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }
}
