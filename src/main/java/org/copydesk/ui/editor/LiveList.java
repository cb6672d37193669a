package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.lease.Lease;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ListWatch;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Keeps "My articles" true without F5. Every few seconds ({@link #interval()}: less often in a window
 * holding nothing that nobody is working in) it asks the database the one cheap
 * question of {@link ListWatch} (the editor's leases; the work waiting on their desks while they
 * have room) and acts only on a difference: an article given to the editor joins the list with who
 * gave it and why; one taken back, given away or run out leaves it with the reason; a supervisor's
 * extra time shows in the countdown; work waiting is announced ("3 articles waiting on News — F5")
 * or, if the editor chose so, fetched at once. A read that overlapped the window's own claim,
 * renewal, release or decision is not acted on: the next one is.
 *
 * <p>What it finds goes to the part that owns it, once: a lease lost or given more time to
 * {@link LeaseUpkeep}, news of a newer revision to {@link RevisionReader}, a top-up to
 * {@link ArticleClaims}.
 */
final class LiveList {

    /** An article the editor gave back is not announced as waiting for this long ("release means not me"). */
    static final Duration NOT_ME_FOR = Duration.ofMinutes(10);

    private final EditorContext context;
    private final HeldList held;
    private final LeaseUpkeep upkeep;
    private final RevisionReader revisions;
    private final ArticleClaims claims;
    private final BooleanProperty autoTopUp;

    private final StringProperty waiting = new SimpleStringProperty("");
    private final IntegerProperty waitingCount = new SimpleIntegerProperty();
    private boolean reading;
    private long lastReadNanos;
    /** The window has asked less often than the working interval since its last read at that interval. */
    private boolean slowed;
    /** The waiting articles seen when the list last topped itself up: not again for the same ones. */
    private Set<Long> toppedUpFor = Set.of();

    /** @param autoTopUp the editor's choice: the list tops itself up when work is waiting */
    LiveList(EditorContext context, LeaseUpkeep upkeep, RevisionReader revisions, ArticleClaims claims,
             BooleanProperty autoTopUp) {
        this.context = context;
        this.held = context.held;
        this.upkeep = upkeep;
        this.revisions = revisions;
        this.claims = claims;
        this.autoTopUp = autoTopUp;
        this.lastReadNanos = context.ticker.nanoTime();
        // Get articles: the nudge is out of date until the next read
        claims.loadingProperty().addListener((o, was, now) -> {
            if (now) {
                waiting.set("");
                waitingCount.set(0);
            }
        });
    }

    /** Every tick: asks again once the interval has passed, or at once when the editor is back at a window that asked less often. */
    void tick() {
        Duration working = context.settings.watchInterval();
        Duration wait = interval();
        boolean longer = wait.compareTo(working) > 0;
        slowed |= longer;
        boolean back = slowed && !longer;
        if (context.connection.isOffline() || reading
                || !back && context.ticker.nanoTime() - lastReadNanos < wait.toNanos()) {
            return;
        }
        slowed = longer;
        long mark = held.changeMark();
        boolean room = held.rows().size() < context.editor.capacity();
        List<String> lookAt = room ? context.desks() : List.of();
        BackgroundTask.of("watch my list", () -> context.session.listWatch().read(context.editor.id(), lookAt))
                .onRunning(() -> reading = true)
                .onFinished(() -> {
                    reading = false;
                    lastReadNanos = context.ticker.nanoTime();
                })
                .onSuccess(snapshot -> apply(snapshot, mark, room))
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /**
     * How often the list is asked now (the durations are {@link EditorViewModel.Settings}' constants).
     * Each read costs the server 0.3–0.6 ms of CPU (docs/benchmarks.md, "Idle editors"), and a
     * newsroom's server carries hundreds of windows that nobody is working in, so a window asks
     * often only while it matters to someone:
     * <ul>
     *   <li>holding leases: every working interval (3 s), whoever is at the keyboard. A lease taken
     *       back, given away or run out, a supervisor's extra time and a newer revision must show
     *       within it, and the same editor may be renewing those leases in another window;</li>
     *   <li>holding nothing, touched in the last {@code QUIET_AFTER} (a minute): every working
     *       interval; the editor is looking for work (just decided the last article, pressed F5, is
     *       reading the nudge);</li>
     *   <li>holding nothing, untouched for {@code QUIET_AFTER}: every {@code QUIET_WATCH_INTERVAL}
     *       (15 s). All that can change for this window then is an article given to the editor and
     *       the "N articles waiting — F5" nudge (or the top-up the editor chose); both show within
     *       that instead of the working interval, for a fifth of the reads;</li>
     *   <li>holding nothing, editor away (no key or click for the idle timeout, 10 minutes): every
     *       {@code AWAY_WATCH_INTERVAL} (30 s); nobody reads the window then.</li>
     * </ul>
     * A key or a click in a window that was asking less often asks at once (on the next tick), and
     * from then on every working interval; an article arriving puts the window back on the working
     * interval too, since it then holds a lease.
     */
    Duration interval() {
        if (!held.rows().isEmpty()) {
            return context.settings.watchInterval();
        }
        if (context.idle()) {
            return EditorViewModel.Settings.AWAY_WATCH_INTERVAL;
        }
        return context.untouchedFor(EditorViewModel.Settings.QUIET_AFTER) ? EditorViewModel.Settings.QUIET_WATCH_INTERVAL
                : context.settings.watchInterval();
    }

    private void apply(ListWatch.Snapshot snapshot, long mark, boolean room) {
        if (!held.unchangedSince(mark)) {
            return; // the window changed its own list meanwhile; the next read sees where that ended
        }
        Map<Long, ListWatch.HeldLease> server = snapshot.held().stream()
                .collect(Collectors.toMap(ListWatch.HeldLease::articleId, h -> h, (a, b) -> a));
        List<HeldArticle> lost = new ArrayList<>();
        for (LeaseRow row : List.copyOf(held.rows())) {
            ListWatch.HeldLease h = server.get(row.id());
            Lease mine = row.article().lease();
            if (h == null || h.token() != mine.token()) {
                lost.add(row.article());
            } else if (Duration.between(mine.expiresAt(), h.expiresAt()).abs().compareTo(Duration.ofSeconds(1)) > 0
                    || !java.util.Objects.equals(row.article().dueAt(), h.dueInstant())) {
                // renewed in another window, a supervisor gave more time or moved the due time: show it
                upkeep.renewed(row, row.article().withLease(new Lease(mine.key(), mine.owner(), mine.token(), h.expiresAt(),
                        snapshot.serverNow())).withDueAt(h.dueInstant()));
            }
        }
        List<ListWatch.HeldLease> arrived = snapshot.held().stream()
                .filter(h -> !held.shows(h.articleId()) && !held.isGone(HeldList.key(h.articleId(), h.token())))
                .toList();
        revisions.newerSeen(snapshot.held().stream().filter(h -> h.newerRevision() != null)
                .collect(Collectors.toMap(ListWatch.HeldLease::articleId, ListWatch.HeldLease::newerRevision, (a, b) -> a)));
        explainLost(lost);
        welcome(arrived);
        announce(room ? snapshot.waiting() : List.of(), context.ticker.nanoTime());
    }

    private void explainLost(List<HeldArticle> lost) {
        if (lost.isEmpty()) {
            return;
        }
        BackgroundTask.of("explain lost leases", () -> lost.stream().map(a -> context.session.queue().lapsed(a)).toList())
                .onSuccess(explained -> explained.forEach(upkeep::lost))
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /** Articles the editor holds that this window does not show: given by a supervisor, or claimed in another window. */
    private void welcome(List<ListWatch.HeldLease> arrived) {
        if (arrived.isEmpty()) {
            return;
        }
        Set<Long> ids = arrived.stream().map(ListWatch.HeldLease::articleId).collect(Collectors.toSet());
        BackgroundTask.of("pick up new articles", () -> {
                    List<Arrival> arrivals = new ArrayList<>();
                    for (HeldArticle h : context.session.queue().held(context.editor.id())) {
                        if (ids.contains(h.id()) && !h.lease().remainingAtRead().isZero()) {
                            arrivals.add(new Arrival(h, context.session.queue().arrival(h)));
                        }
                    }
                    return arrivals;
                })
                .onSuccess(arrivals -> {
                    long now = context.ticker.nanoTime();
                    for (Arrival a : arrivals) {
                        if (!held.shows(a.article().id()) && !held.isGone(HeldList.key(a.article()))) {
                            held.add(new LeaseRow(a.article(), now));
                            upkeep.heldAgain(a.article().id());
                            context.notices.post(Notice.Kind.INFO, a.message());
                            context.alertDesktop(a.message()); // seen in a working day: missed behind another window
                        }
                    }
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    private record Arrival(HeldArticle article, String message) {
    }

    /** "3 articles waiting on News — F5", or the list tops itself up if the editor chose so. */
    private void announce(List<ListWatch.Waiting> found, long now) {
        List<ListWatch.Waiting> forMe = found.stream()
                .filter(w -> !held.gaveBackLately(w.articleId(), now, NOT_ME_FOR.toNanos())).toList();
        waitingCount.set(forMe.size());
        if (forMe.isEmpty()) {
            waiting.set("");
            toppedUpFor = Set.of();
            return;
        }
        Map<String, Long> byDesk = forMe.stream()
                .collect(Collectors.groupingBy(ListWatch.Waiting::desk, LinkedHashMap::new, Collectors.counting()));
        String where = Formats.list(byDesk.keySet().stream().map(context::deskName).toList());
        // at the limit the read stopped on the first desks it walked: the others may have work too
        waiting.set(found.size() >= ListWatch.WAITING_LIMIT ? Messages.text("editor.list.waitingMany", ListWatch.WAITING_LIMIT)
                : Messages.text("editor.list.waiting", forMe.size(), where));
        Set<Long> ids = forMe.stream().map(ListWatch.Waiting::articleId).collect(Collectors.toSet());
        // offline (an answer that came back late, after the window went offline) Get articles would not run:
        // the top-up waits for the next read instead of counting as done
        if (autoTopUp.get() && !claims.loadingProperty().get() && !context.connection.isOffline() && !ids.equals(toppedUpFor)) {
            toppedUpFor = ids; // if the claim brings none of them (another editor was quicker), do not insist
            claims.topUp();
        }
    }

    ReadOnlyStringProperty waiting() {
        return waiting;
    }

    ReadOnlyIntegerProperty waitingCount() {
        return waitingCount;
    }
}
