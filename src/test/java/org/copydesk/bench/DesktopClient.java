package org.copydesk.bench;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.ui.editor.EditorViewModel;

/**
 * One signed-in desktop client as the app runs it, on the editor's own account: the desktop pool
 * ({@link DataSources.PoolSize#desktop()}), a window opening with two reads at once (what the editor
 * holds, and the list watch), then on the client's own random phase the list watch as the window
 * asks it ({@link Window}: holding nothing at the window, every 3 s for the minute after sign-in,
 * then every 15 s since nobody touches it; every 30 s while the editor is away; holding a full hand,
 * every 3 s: {@code LiveList}), the presence heartbeat every 60 s while the editor is at the window
 * holding nothing (an away editor's client sends none), or the leases' renewal every 60 s while it
 * holds articles ({@code LeaseUpkeep}), and the release service as the app starts it
 * ({@link ReleaseService#start()}: the newsroom's sweep turn, paced as the database asks).
 * A working client also gets articles and approves each, over and over, on a thread of its own
 * ({@link #work}), as an editor pressing Get articles and deciding at once would.
 */
final class DesktopClient implements AutoCloseable {

    static final Duration PRESENCE = Duration.ofSeconds(60);
    /**
     * {@code -Dbench.watchAsBefore=true}: an idle client at the window asks for its list every 3 s
     * however long it is untouched, as the window did before it slowed down when untouched (for a run
     * measured against one without it, back to back).
     */
    static final boolean WATCH_AS_BEFORE = Boolean.getBoolean("bench.watchAsBefore");

    private final String id;
    private final Database pool;
    private final ReviewSession session;
    private final ReleaseService release;
    private final List<ScheduledFuture<?>> schedules = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    private volatile Window window;
    private volatile List<HeldArticle> held = List.of();
    private Runnable watch;
    private Runnable presence;
    private ScheduledExecutorService scheduler;
    private Random phase;

    /** What a signed-in window sends the server while nobody touches it (for {@link #sendOnly}); PRESENCE: or the renewal. */
    enum Activity { LIST_WATCH, PRESENCE, SWEEP_TURN }

    /** Where the idle editor is. */
    enum Window {
        /** Away (no key or mouse for the idle timeout): the list every 30 s, no presence. */
        AWAY,
        /** At the window holding nothing, untouched: the list every 3 s for a minute, then every 15 s; presence every 60 s. */
        AT_WINDOW,
        /**
         * At the window holding a full hand (Get articles once at sign-in), reading: the list every
         * 3 s (a window holding leases asks at the working interval), the leases renewed every 60 s.
         */
        HOLDING
    }

    private DesktopClient(String id, Database pool) {
        this.id = id;
        this.pool = pool;
        this.session = new ReviewSession(pool, ReviewSession.Options.defaults());
        this.release = session.releaseService(released -> { });
    }

    /**
     * Signs in (opens the pool on the editor's account) and starts the window's schedules on
     * {@code scheduler} for where the editor is ({@link Window}).
     */
    static DesktopClient signIn(String url, String id, char[] password, List<String> desks, Window window,
                                ScheduledExecutorService scheduler, Random phase, AtomicLong errors) {
        Database pool = Database.open(url, id, password, null, DataSources.PoolSize.desktop(), Database.SchemaAction.NONE, null);
        DesktopClient client = new DesktopClient(id, pool);
        try {
            CompletableFuture.allOf(CompletableFuture.runAsync(() -> client.session.queue().held(id), scheduler),
                    CompletableFuture.runAsync(() -> client.session.listWatch().read(id, desks), scheduler)).join();
            // the window asks about its desks only while it has room (LiveList)
            Runnable watch = () -> ListWatchBenchmark.guarded(errors, () -> client.session.listWatch().read(id,
                    client.held.size() < ClaimBenchmark.BATCH ? desks : List.of()));
            client.watch = watch;
            client.presence = window == Window.HOLDING
                    ? () -> ListWatchBenchmark.guarded(errors, () -> client.held = client.session.queue().renew(id, client.held).renewed())
                    : () -> ListWatchBenchmark.guarded(errors, () -> client.session.queue().recordPresence(id));
            client.window = window;
            client.scheduler = scheduler;
            client.phase = phase;
            switch (window) {
                case AT_WINDOW -> {
                    client.watchAtTheWindow(watch, scheduler, phase);
                    client.every(PRESENCE, client.presence, scheduler, phase);
                }
                case HOLDING -> {
                    client.held = client.session.queue().claim(id).articles();
                    client.every(EditorViewModel.Settings.WATCH_INTERVAL, watch, scheduler, phase);
                    client.every(PRESENCE, client.presence, scheduler, phase);
                }
                case AWAY -> client.every(EditorViewModel.Settings.AWAY_WATCH_INTERVAL, watch, scheduler, phase);
            }
            client.release.start();
            return client;
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The window untouched since sign-in: the working interval for {@link EditorViewModel.Settings#QUIET_AFTER}, then the quiet one. */
    private void watchAtTheWindow(Runnable watch, ScheduledExecutorService scheduler, Random phase) {
        ScheduledFuture<?> working = every(EditorViewModel.Settings.WATCH_INTERVAL, watch, scheduler, phase);
        if (WATCH_AS_BEFORE) {
            return;
        }
        schedules.add(scheduler.schedule(() -> {
            working.cancel(false);
            if (!closed) {
                every(EditorViewModel.Settings.QUIET_WATCH_INTERVAL, watch, scheduler, phase);
            }
        }, EditorViewModel.Settings.QUIET_AFTER.toMillis(), TimeUnit.MILLISECONDS));
    }

    private ScheduledFuture<?> every(Duration interval, Runnable action, ScheduledExecutorService scheduler, Random phase) {
        long ms = interval.toMillis();
        ScheduledFuture<?> f = scheduler.scheduleAtFixedRate(action, phase.nextLong(ms), ms, TimeUnit.MILLISECONDS);
        schedules.add(f);
        return f;
    }

    /**
     * From now on sends only {@code activities}, each as an untouched window past its first minute
     * sends it (the list watch at its quiet or away interval, presence at the window every 60 s, the
     * paced sweep turn): for cells that leave one thing out at a time, to see what each costs the
     * server. The pool and its connection stay open.
     */
    void sendOnly(java.util.Set<Activity> activities) {
        schedules.forEach(s -> s.cancel(false));
        schedules.clear();
        release.close();
        if (activities.contains(Activity.LIST_WATCH)) {
            every(switch (window) {
                case AT_WINDOW -> EditorViewModel.Settings.QUIET_WATCH_INTERVAL;
                case HOLDING -> EditorViewModel.Settings.WATCH_INTERVAL;
                case AWAY -> EditorViewModel.Settings.AWAY_WATCH_INTERVAL;
            }, watch, scheduler, phase);
        }
        if (activities.contains(Activity.PRESENCE) && window != Window.AWAY) {
            every(PRESENCE, presence, scheduler, phase);
        }
        if (activities.contains(Activity.SWEEP_TURN)) {
            release.start();
        }
    }

    /**
     * {@code false}: the release service as it was before the database paced it, the newsroom's turn
     * asked for every interval whatever the answer (for a cell measured against the paced one in the
     * same run); {@code true}: as the app runs it.
     */
    void pacedRelease(boolean paced) {
        release.close();
        if (paced) {
            release.start();
        } else {
            release.startEveryInterval();
        }
    }

    String id() {
        return id;
    }

    /**
     * Get articles, then approve each one held: one round of a working editor. Returns the claim's
     * latency in nanoseconds; the caller waits a little when the claim came back empty.
     */
    long work(int[] claimed) {
        long t0 = System.nanoTime();
        List<HeldArticle> held = session.queue().claim(id).articles();
        long latency = System.nanoTime() - t0;
        claimed[0] = held.size();
        for (HeldArticle article : held) {
            DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), article.id(), article.lease(),
                    Verdict.APPROVE, "ok"));
            if (!(outcome instanceof DecisionOutcome.Recorded)) {
                throw new IllegalStateException("a decision was not recorded: " + outcome);
            }
        }
        return latency;
    }

    @Override
    public void close() {
        closed = true;
        schedules.forEach(s -> s.cancel(false));
        release.close();
        pool.close();
    }
}
