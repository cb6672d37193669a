package org.copydesk.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
 * holds, and the list watch), then on the client's own random phase the list watch (every 3 s at
 * the window, every 30 s while the editor is away), the presence heartbeat every 60 s while the
 * editor is at the window (an away editor's client sends none), and the release service as the app
 * starts it ({@link ReleaseService#start()}: the newsroom's sweep turn, paced as the database asks).
 * A working client also gets articles and approves each, over and over, on a thread of its own
 * ({@link #work}), as an editor pressing Get articles and deciding at once would.
 */
final class DesktopClient implements AutoCloseable {

    /** The list watch while the editor is away (LiveList.AWAY_INTERVAL, package-private there). */
    static final Duration AWAY = Duration.ofSeconds(30);
    static final Duration PRESENCE = Duration.ofSeconds(60);

    private final String id;
    private final Database pool;
    private final ReviewSession session;
    private final ReleaseService release;
    private final List<ScheduledFuture<?>> schedules = new ArrayList<>();

    private DesktopClient(String id, Database pool) {
        this.id = id;
        this.pool = pool;
        this.session = new ReviewSession(pool, ReviewSession.Options.defaults());
        this.release = session.releaseService(released -> { });
    }

    /**
     * Signs in (opens the pool on the editor's account) and starts the window's schedules on
     * {@code scheduler}; {@code atWindow}: the editor is at the window (list watch every 3 s and
     * presence), or away (list watch every 30 s, no presence).
     */
    static DesktopClient signIn(String url, String id, char[] password, List<String> desks, boolean atWindow,
                                ScheduledExecutorService scheduler, Random phase, AtomicLong errors) {
        Database pool = Database.open(url, id, password, null, DataSources.PoolSize.desktop(), Database.SchemaAction.NONE, null);
        DesktopClient client = new DesktopClient(id, pool);
        try {
            CompletableFuture.allOf(CompletableFuture.runAsync(() -> client.session.queue().held(id), scheduler),
                    CompletableFuture.runAsync(() -> client.session.listWatch().read(id, desks), scheduler)).join();
            long watchMs = (atWindow ? EditorViewModel.Settings.WATCH_INTERVAL : AWAY).toMillis();
            client.schedules.add(scheduler.scheduleAtFixedRate(() -> ListWatchBenchmark.guarded(errors,
                    () -> client.session.listWatch().read(id, desks)), phase.nextLong(watchMs), watchMs, TimeUnit.MILLISECONDS));
            if (atWindow) {
                long presenceMs = PRESENCE.toMillis();
                client.schedules.add(scheduler.scheduleAtFixedRate(() -> ListWatchBenchmark.guarded(errors,
                        () -> client.session.queue().recordPresence(id)), phase.nextLong(presenceMs), presenceMs, TimeUnit.MILLISECONDS));
            }
            client.release.start();
            return client;
        } catch (RuntimeException e) {
            client.close();
            throw e;
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
        schedules.forEach(s -> s.cancel(false));
        release.close();
        pool.close();
    }
}
