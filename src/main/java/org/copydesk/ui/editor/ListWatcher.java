package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.lease.Lease;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ListWatch;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.ConnectionStatus;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeBoard;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Keeps "My articles" true without F5. Every few seconds it asks the database the one cheap
 * question of {@link ListWatch} (the editor's leases; the work waiting on their desks while they
 * have room) and acts only on a difference: an article given to the editor joins the list with who
 * gave it and why; one taken back, given away or run out leaves it with the reason; a supervisor's
 * extra time shows in the countdown; work waiting is announced ("3 articles waiting on News — F5")
 * or, if the editor chose so, fetched at once. A read that overlapped the window's own claim,
 * renewal, release or decision is not acted on: the next one is.
 */
final class ListWatcher {

    /**
     * How often the list is asked while the editor is away (no key or mouse for the idle timeout):
     * nobody reads the window then, and a newsroom's server carries many such windows. Back at
     * work, the next tick asks again if the working interval has passed since the last read.
     */
    static final Duration AWAY_INTERVAL = Duration.ofSeconds(30);

    /** An article the editor gave back is not announced as waiting for this long ("release means not me"). */
    static final Duration NOT_ME_FOR = Duration.ofMinutes(10);

    private final ReviewSession services;
    private final Editor editor;
    private final List<String> desks;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Duration interval;
    private final HeldList held;
    private final LeaseUpkeep upkeep;
    private final NoticeBoard notices;
    private final ConnectionStatus connection;
    private final Consumer<Throwable> onFailure;
    private final Runnable topUp;
    private final BooleanSupplier claiming;
    private final Function<String, String> deskName;

    private final BooleanProperty autoTopUp;
    private final StringProperty waiting = new SimpleStringProperty("");
    private final IntegerProperty waitingCount = new SimpleIntegerProperty();
    private boolean reading;
    private long lastReadNanos;
    /** The waiting articles seen when the list last topped itself up: not again for the same ones. */
    private Set<Long> toppedUpFor = Set.of();
    private Consumer<Map<Long, Integer>> newerRevisions = newest -> { };

    ListWatcher(ReviewSession services, Editor editor, List<String> desks, TaskExecutor tasks, Ticker ticker,
                Duration interval, HeldList held, LeaseUpkeep upkeep, NoticeBoard notices, ConnectionStatus connection,
                Consumer<Throwable> onFailure, Runnable topUp, BooleanSupplier claiming, Function<String, String> deskName,
                BooleanProperty autoTopUp) {
        this.autoTopUp = autoTopUp;
        this.services = services;
        this.editor = editor;
        this.desks = List.copyOf(desks);
        this.tasks = tasks;
        this.ticker = ticker;
        this.interval = interval;
        this.held = held;
        this.upkeep = upkeep;
        this.notices = notices;
        this.connection = connection;
        this.onFailure = onFailure;
        this.topUp = topUp;
        this.claiming = claiming;
        this.deskName = deskName;
        this.lastReadNanos = ticker.nanoTime();
    }

    /** Every tick: asks again once the interval has passed (the longer one while the editor is away). */
    void tick() {
        Duration wait = upkeep.idle() ? AWAY_INTERVAL : interval;
        if (connection.isOffline() || reading || ticker.nanoTime() - lastReadNanos < wait.toNanos()) {
            return;
        }
        long mark = held.changeMark();
        boolean room = held.rows().size() < editor.capacity();
        List<String> lookAt = room ? desks : List.of();
        BackgroundTask.of("watch my list", () -> services.listWatch().read(editor.id(), lookAt))
                .onRunning(() -> reading = true)
                .onFinished(() -> {
                    reading = false;
                    lastReadNanos = ticker.nanoTime();
                })
                .onSuccess(snapshot -> apply(snapshot, mark, room))
                .onFailure(onFailure)
                .executeWith(tasks);
    }

    private void apply(ListWatch.Snapshot snapshot, long mark, boolean room) {
        if (!held.unchangedSince(mark)) {
            return; // the window changed its own list meanwhile; the next read sees where that ended
        }
        Map<Long, ListWatch.HeldLease> server = snapshot.held().stream()
                .collect(Collectors.toMap(ListWatch.HeldLease::articleId, h -> h, (a, b) -> a));
        long now = ticker.nanoTime();
        List<HeldArticle> lost = new ArrayList<>();
        for (LeaseRow row : List.copyOf(held.rows())) {
            ListWatch.HeldLease h = server.get(row.id());
            Lease mine = row.article().lease();
            if (h == null || h.token() != mine.token()) {
                lost.add(row.article());
            } else if (Duration.between(mine.expiresAt(), h.expiresAt()).abs().compareTo(Duration.ofSeconds(1)) > 0) {
                // a supervisor gave more time (or the database otherwise moved the expiry): show it
                row.update(row.article().withLease(new Lease(mine.key(), mine.owner(), mine.token(), h.expiresAt(),
                        snapshot.serverNow())), now);
            }
        }
        List<ListWatch.HeldLease> arrived = snapshot.held().stream()
                .filter(h -> !held.shows(h.articleId()) && !held.isGone(HeldList.key(h.articleId(), h.token())))
                .toList();
        newerRevisions.accept(snapshot.held().stream().filter(h -> h.newerRevision() != null)
                .collect(Collectors.toMap(ListWatch.HeldLease::articleId, ListWatch.HeldLease::newerRevision, (a, b) -> a)));
        explainLost(lost);
        welcome(arrived);
        announce(room ? snapshot.waiting() : List.of(), now);
    }

    private void explainLost(List<HeldArticle> lost) {
        if (lost.isEmpty()) {
            return;
        }
        BackgroundTask.of("explain lost leases", () -> lost.stream().map(a -> services.queue().lapsed(a)).toList())
                .onSuccess(explained -> explained.forEach(upkeep::lost))
                .onFailure(onFailure)
                .executeWith(tasks);
    }

    /** Articles the editor holds that this window does not show: given by a supervisor, or claimed in another window. */
    private void welcome(List<ListWatch.HeldLease> arrived) {
        if (arrived.isEmpty()) {
            return;
        }
        Set<Long> ids = arrived.stream().map(ListWatch.HeldLease::articleId).collect(Collectors.toSet());
        BackgroundTask.of("pick up new articles", () -> {
                    List<Arrival> arrivals = new ArrayList<>();
                    for (HeldArticle h : services.queue().held(editor.id())) {
                        if (ids.contains(h.id()) && !h.lease().remainingAtRead().isZero()) {
                            arrivals.add(new Arrival(h, services.queue().arrival(h)));
                        }
                    }
                    return arrivals;
                })
                .onSuccess(arrivals -> {
                    long now = ticker.nanoTime();
                    for (Arrival a : arrivals) {
                        if (!held.shows(a.article().id()) && !held.isGone(HeldList.key(a.article()))) {
                            held.add(new LeaseRow(a.article(), now));
                            notices.post(Notice.Kind.INFO, a.message());
                            upkeep.alertDesktop(a.message()); // seen in a working day: missed behind another window
                        }
                    }
                })
                .onFailure(onFailure)
                .executeWith(tasks);
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
        String where = Formats.list(byDesk.keySet().stream().map(deskName).toList());
        // at the limit the read stopped on the first desks it walked: the others may have work too
        waiting.set(found.size() >= ListWatch.WAITING_LIMIT ? Messages.text("editor.list.waitingMany", ListWatch.WAITING_LIMIT)
                : Messages.text("editor.list.waiting", forMe.size(), where));
        Set<Long> ids = forMe.stream().map(ListWatch.Waiting::articleId).collect(Collectors.toSet());
        if (autoTopUp.get() && !claiming.getAsBoolean() && !ids.equals(toppedUpFor)) {
            toppedUpFor = ids; // if the claim brings none of them (another editor was quicker), do not insist
            topUp.run();
        }
    }

    /**
     * Where each read's news of newer revisions goes (issue 13): article id to its newest revision,
     * for the held articles whose lease was handed an older one. It comes with the read, at no cost.
     */
    void onNewerRevisions(Consumer<Map<Long, Integer>> listener) {
        this.newerRevisions = listener;
    }

    /** After Get articles: the nudge is out of date until the next read. */
    void claimed() {
        waiting.set("");
        waitingCount.set(0);
    }

    StringProperty waiting() {
        return waiting;
    }

    IntegerProperty waitingCount() {
        return waitingCount;
    }
}
