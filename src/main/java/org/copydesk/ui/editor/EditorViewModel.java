package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleRevision;
import org.copydesk.review.Assignment;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.ConnectionStatus;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeBoard;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Everything the editor's window shows and does, without a single control: the selection, the
 * reader, Get articles, submit and release, offline mode with reconnection. Its parts: drafts
 * ({@link DraftKeeper}), keeping leases ({@link LeaseUpkeep}), keeping the list true without F5
 * ({@link ListWatcher}), the rows and selection they share ({@link HeldList}). All database work
 * goes through {@link TaskExecutor}; every method here is called on the FX thread.
 */
public final class EditorViewModel implements AutoCloseable {

    /** How long a decision can be taken back before it is sent. */
    public static final Duration UNDO_WINDOW = DecisionQueue.UNDO_WINDOW;

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(EditorViewModel.class);

    /**
     * Timings; {@link #defaults()} for the app, shorter ones in tests.
     *
     * @param watchInterval how often the window asks whether its list is still true (within 5 s of a change)
     */
    public record Settings(Duration tick, Duration heartbeatInterval, Duration idleTimeout, Duration warnBefore,
                           Duration autosaveDelay, Duration firstReconnectDelay, Duration maxReconnectDelay,
                           Duration noticeLifetime, Duration watchInterval) {

        public static final Duration WATCH_INTERVAL = Duration.ofSeconds(3);

        public Settings(Duration tick, Duration heartbeatInterval, Duration idleTimeout, Duration warnBefore,
                        Duration autosaveDelay, Duration firstReconnectDelay, Duration maxReconnectDelay,
                        Duration noticeLifetime) {
            this(tick, heartbeatInterval, idleTimeout, warnBefore, autosaveDelay, firstReconnectDelay, maxReconnectDelay,
                    noticeLifetime, WATCH_INTERVAL);
        }

        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2),
                    Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(8), WATCH_INTERVAL);
        }
    }

    private final ReviewSession services;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Editor editor;
    private final List<String> desks;
    private final Settings settings;
    private final ZoneId zone;
    private final Map<String, String> deskNames = new HashMap<>();

    private final HeldList held = new HeldList();
    private final NoticeBoard notices;
    private final ConnectionStatus connection;
    private final DraftKeeper drafts;
    private final LeaseUpkeep upkeep;
    private final ListWatcher watcher;
    private final EditorSettings remembered;
    private final DecisionQueue decisions;
    private final RevisionReader revisions;
    private final ReadingPane reading;
    private Consumer<String> attention = text -> { };
    private java.util.function.BooleanSupplier inFront = () -> true;

    private final BooleanProperty loading = new SimpleBooleanProperty();
    private final BooleanProperty submitting = new SimpleBooleanProperty();
    private final StringProperty emptyText = new SimpleStringProperty(Messages.text("editor.list.empty"));
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty deskSummary = new SimpleStringProperty("");
    private final BooleanBinding canSubmit;
    private final StringBinding whyNoSubmit;
    private final BooleanBinding canRelease;
    private final BooleanBinding canReload;

    private final List<AutoCloseable> timers = new ArrayList<>();
    private Optional<LocalDateTime> nextAvailable = Optional.empty();
    private boolean everLoaded;
    /** Whether this window takes work: from {@link #start()}, or from the first Get articles after {@link #startWithoutClaiming()}. */
    private boolean reviewing;

    public EditorViewModel(ReviewSession services, TaskExecutor tasks, Ticker ticker, Editor editor, List<String> desks,
                           Settings settings, ZoneId zone) {
        this.services = services;
        this.tasks = tasks;
        this.ticker = ticker;
        this.editor = editor;
        this.desks = List.copyOf(desks);
        this.settings = settings;
        this.zone = zone;
        this.notices = new NoticeBoard(ticker, settings.noticeLifetime());
        this.connection = new ConnectionStatus(ticker, settings.firstReconnectDelay(), settings.maxReconnectDelay(),
                Messages.text("editor.offline.notesKept"));
        this.drafts = new DraftKeeper(services, editor.id(), tasks, ticker, settings.autosaveDelay(), zone, held, connection,
                this::onFailure, this::activity);
        this.remembered = new EditorSettings(tasks);
        this.upkeep = new LeaseUpkeep(services, editor, tasks, ticker, settings, held, drafts, notices, connection,
                this::onFailure, text -> attention.accept(text));
        this.watcher = new ListWatcher(services, editor, desks, tasks, ticker, settings.watchInterval(), held, upkeep, notices,
                connection, this::onFailure, this::topUp, loading::get, this::deskName, remembered.autoTopUpProperty());
        this.decisions = new DecisionQueue(services, tasks, ticker, held, drafts, notices, submitting, this::onFailure);
        this.revisions = new RevisionReader(services, tasks, held, zone, remembered.showChangesProperty(), this::onFailure,
                this::showRevision); // the pane is made next: it reads through revisions
        this.reading = new ReadingPane(services, editor.id(), tasks, held, drafts, revisions, zone, this::deskName,
                this::onFailure);
        watcher.onNewerRevisions(revisions::newerSeen);
        decisions.onRefused(revisions::refused);
        var selected = held.selected();
        var verdict = drafts.verdict();
        var notes = drafts.notes();
        var offline = connection.offlineProperty();
        // Not held up while an earlier decision is being sent: Submit only queues this one (it is sent
        // after its undo window), and an editor deciding quickly pressed Ctrl+Enter into that moment.
        whyNoSubmit = Bindings.createStringBinding(() -> whyNoSubmit(selected.get(), verdict.get(), notes.get(), offline.get()),
                selected, verdict, notes, offline);
        canSubmit = Bindings.createBooleanBinding(() -> whyNoSubmit.get().isEmpty(), whyNoSubmit);
        canRelease = Bindings.createBooleanBinding(() -> selected.get() != null && !submitting.get() && !offline.get(),
                selected, submitting, offline);
        canReload = loading.not().and(offline.not());
        watcher.waiting().addListener((o, was, now) -> updateEmptyText());
        selected.addListener((obs, old, row) -> onSelectionChanged(old, row));
        held.rows().addListener((javafx.collections.ListChangeListener<LeaseRow>) c -> {
            updateEmptyText();
            updateSummary();
            reading.keepOnly(held.rows().stream().map(LeaseRow::id).collect(Collectors.toSet()));
        });
    }

    /** Why Submit is disabled, in words for its tooltip and the line under it; empty when it is enabled. */
    private String whyNoSubmit(LeaseRow row, Verdict v, String text, boolean offline) {
        if (row == null) {
            return Messages.text("editor.whyNoSubmit.noArticle");
        } else if (offline) {
            return Messages.text("editor.whyNoSubmit.offline");
        } else if (v == null) {
            return Messages.text("editor.whyNoSubmit.noDecision");
        } else if (v.needsNotes() && (text == null || text.isBlank())) {
            return Messages.text("editor.whyNoSubmit.needsNote", VerdictWords.label(v));
        }
        return "";
    }

    /** Starts the countdowns, heartbeat, list watch and autosave, and gets the editor's articles. */
    public void start() {
        startWithoutClaiming();
        reload();
    }

    /**
     * As {@link #start()}, but claims nothing until the person presses Get articles: a supervisor
     * signs in to the dashboard and takes work only when they choose to review.
     */
    public void startWithoutClaiming() {
        timers.add(ticker.every(settings.tick(), this::tick));
        deskSummary.set(String.join(", ", desks));
        BackgroundTask.of("load desks", () -> services.newsroom().desks())
                .onSuccess(list -> {
                    list.forEach(d -> deskNames.put(d.id(), d.name()));
                    deskSummary.set(desks.stream().map(this::deskName).collect(Collectors.joining(", ")));
                    updateEmptyText();
                })
                .onFailure(this::onFailure)
                .executeWith(tasks);
    }

    /**
     * Where the window's alerts for the operating system go (a lease about to run out or lost);
     * the view sends them on only while the window is not in front.
     */
    public void onAttention(Consumer<String> alerts) {
        this.attention = alerts;
    }

    /** Whether the window is in front: notices do not fade while nobody can read them. */
    public void inFrontWhen(java.util.function.BooleanSupplier inFront) {
        this.inFront = inFront;
    }

    // --- commands ---------------------------------------------------------------------------------

    /** Get articles / Reload (F5): refreshes the leases held and tops up to capacity. */
    public void reload() {
        reviewing = true;
        if (loading.get() || connection.isOffline()) {
            return;
        }
        activity();
        List<LeaseRow> before = List.copyOf(held.rows());
        held.changing(BackgroundTask.of("get articles", () -> services.queue().claim(editor.id(), desks, null)), loading)
                .onSuccess(assignment -> {
                    everLoaded = true;
                    apply(assignment, before);
                })
                .onFailure(this::onFailure)
                .executeWith(tasks);
    }

    /** Gets articles on the window's own account (back online, work waiting), only once the person takes work here. */
    private void topUp() {
        if (reviewing) {
            reload();
        }
    }

    public void selectNext() {
        move(1);
    }

    public void selectPrevious() {
        move(-1);
    }

    private void move(int step) {
        ObservableList<LeaseRow> rows = held.rows();
        if (rows.isEmpty()) {
            return;
        }
        int i = rows.indexOf(held.selected().get());
        held.selected().set(rows.get(i < 0 ? 0 : Math.floorMod(i + step, rows.size())));
        activity();
    }

    /**
     * Submits the chosen decision on the selected article: it leaves the list at once and is sent
     * after {@link #UNDO_WINDOW}, while its notice offers Undo (see {@link DecisionQueue} for why).
     */
    public void submit() {
        if (!canSubmit.get()) {
            if (held.selected().get() != null && drafts.verdict().get() != null && !connection.isOffline()) {
                Notice why = notices.post(Notice.Kind.WARNING, whyNoSubmit.get());
                // an old notice leaves: once the editor types the note (or picks another decision
                // or article), the warning no longer holds
                whyNoSubmit.addListener(new javafx.beans.value.ChangeListener<String>() {
                    @Override
                    public void changed(javafx.beans.value.ObservableValue<? extends String> o, String was, String now) {
                        notices.dismiss(why);
                        o.removeListener(this);
                    }
                });
            }
            return;
        }
        activity();
        LeaseRow row = held.selected().get();
        revisions.submitting(row.id());
        decisions.decide(row, drafts.request(row));
    }

    /** Undo: the decision is not sent; the article is back, selected, with its decision and notes. */
    public void undo(long articleId) {
        decisions.undo(articleId);
    }


    /** Gives the selected article back to the queue; the notes stay as a draft. */
    public void releaseSelected() {
        if (!canRelease.get()) {
            return;
        }
        activity();
        LeaseRow row = held.selected().get();
        drafts.flush(row.id());
        BackgroundTask.of("release", () -> services.queue().release(row.article()))
                .onRunning(held::changeStarted)
                .onFinished(held::changeFinished)
                .onSuccess(lost -> {
                    held.gaveBack(row.id(), ticker.nanoTime());
                    held.remove(row);
                    lost.ifPresentOrElse(l -> notices.post(Notice.Kind.WARNING, l.message()),
                            () -> notices.post(Notice.Kind.INFO, Messages.text("editor.gaveBack", row.article().title())));
                })
                .onFailure(this::onFailure)
                .executeWith(tasks);
    }

    /**
     * Before the window closes or the editor signs out: gives every article held back to the queue
     * (drafts are saved first and kept), then runs {@code then} on the FX thread, whatever happened
     * to each. Offline nothing can be given back: the leases run out as after a crash.
     */
    public void giveBackAll(Runnable then) {
        List<LeaseRow> rows = List.copyOf(held.rows());
        if (rows.isEmpty() || connection.isOffline()) {
            then.run();
            return;
        }
        drafts.flushAll();
        BackgroundTask.of("give back every article", () -> {
                    int given = 0;
                    for (LeaseRow row : rows) {
                        if (services.queue().release(row.article()).isEmpty()) {
                            given++;
                        }
                    }
                    return given;
                })
                .onRunning(held::changeStarted)
                .onFinished(() -> {
                    held.changeFinished();
                    then.run();
                })
                .onSuccess(given -> rows.forEach(row -> {
                    held.gaveBack(row.id(), ticker.nanoTime());
                    held.remove(row);
                }))
                .onFailure(failure -> log.warn("Could not give back every article; the rest run out: {}", failure.toString()))
                .executeWith(tasks);
    }

    /** How many articles the editor holds now (for "Give back your 4 articles?"). */
    public int heldCount() {
        return held.rows().size();
    }

    /** "Keep it": renews one lease now. */
    public void keep(LeaseRow row) {
        upkeep.keep(row);
    }

    public void dismiss(Notice notice) {
        notices.dismiss(notice);
    }

    /** The view calls this on any key press or mouse action: the editor is at work. */
    public void activity() {
        upkeep.activity();
    }

    // --- periodic work --------------------------------------------------------------------------

    /** Every tick: countdowns, warnings, heartbeat, the list watch, autosave, reconnection, fading notices. */
    void tick() {
        decisions.sendDue(false);
        upkeep.tick();
        if (!connection.isOffline()) {
            drafts.autosave();
        }
        watcher.tick();
        if (connection.startProbeIfDue()) {
            probe();
        }
        notices.fade(inFront.getAsBoolean());
        updateSummary();
    }

    private void probe() {
        BackgroundTask.of("reconnect", () -> services.queue().recordPresence(editor.id()))
                .onSuccess(ok -> {
                    connection.back();
                    notices.post(Notice.Kind.SUCCESS, Messages.text("editor.backOnline"));
                    drafts.flushAll();
                    topUp();
                })
                .onFailure(failure -> connection.probeFailed())
                .executeWith(tasks);
    }

    // --- outcomes -------------------------------------------------------------------------------

    private void apply(Assignment assignment, List<LeaseRow> before) {
        long now = ticker.nanoTime();
        Map<Long, LeaseRow> existing = held.rows().stream().collect(Collectors.toMap(LeaseRow::id, r -> r));
        List<LeaseRow> rows = new ArrayList<>();
        for (HeldArticle a : assignment.articles()) {
            if (held.isAside(a.id())) {
                continue; // decided, waiting out its undo window: still held on the server, not shown again
            }
            LeaseRow row = existing.remove(a.id());
            if (row == null) {
                row = new LeaseRow(a, now);
            } else {
                row.update(a, now);
            }
            rows.add(row);
        }
        held.setAll(rows);
        nextAvailable = assignment.nextAvailableAt();
        updateEmptyText();
        watcher.claimed();
        // Rows held before that the claim no longer returns were lost; a renew says why.
        List<LeaseRow> vanished = before.stream().filter(r -> existing.containsKey(r.id())).toList();
        upkeep.renew(vanished);
        reading.readAhead();
        if (assignment.claimed() > 0) {
            notices.post(Notice.Kind.INFO, Messages.text("editor.newArticles", assignment.claimed()));
        }
        upkeep.refreshed();
    }

    private void onFailure(Throwable failure) {
        if (!ConnectionTrouble.isConnectionLost(failure)) {
            notices.post(Notice.Kind.ERROR, ConnectionTrouble.describe(failure));
        } else {
            connection.lost();
        }
    }

    // --- selection ------------------------------------------------------------------------------

    private void showRevision(ArticleRevision r) {
        reading.showRevision(r);
    }

    private void onSelectionChanged(LeaseRow old, LeaseRow row) {
        drafts.show(old, row);
        reading.show(row);
    }

    private String deskName(String id) {
        return deskNames.getOrDefault(id, id);
    }

    private void updateEmptyText() {
        if (!held.rows().isEmpty()) {
            emptyText.set("");
            return;
        }
        if (!everLoaded) {
            emptyText.set(Messages.text("editor.list.empty"));
            return;
        }
        if (watcher != null && !watcher.waiting().get().isEmpty()) {
            emptyText.set(Messages.text("editor.list.workWaiting"));
            return;
        }
        String names = desks.isEmpty() ? Messages.text("editor.yourDesks") : Formats.list(desks.stream().map(this::deskName).toList());
        emptyText.set(nextAvailable.map(t -> Messages.text("editor.nothingNextAt", names, Formats.localClock(t, zone)))
                .orElse(Messages.text("editor.nothing", names)));
    }

    private void updateSummary() {
        summary.set(Messages.text("editor.summary", held.rows().size(), editor.capacity()));
    }

    /** A notice from outside the editor's own work (e.g. the app saw another window signed in as this person). */
    public void tell(Notice.Kind kind, String text) {
        notices.post(kind, text);
    }

    @Override
    public void close() {
        decisions.sendDue(true); // decisions made are sent, not dropped with the window
        if (held.selected().get() != null) {
            drafts.flush(held.selected().get().id());
        }
        for (AutoCloseable t : timers) {
            try {
                t.close();
            } catch (Exception ignored) {
                // stopping a timer cannot fail in a way worth reporting
            }
        }
        timers.clear();
    }

    // --- what the view binds to -----------------------------------------------------------------

    public Editor editor() {
        return editor;
    }

    public List<String> desks() {
        return desks;
    }

    public String deskDisplayName(String id) {
        return deskName(id);
    }

    public ObservableList<LeaseRow> articles() {
        return held.rows();
    }

    public ObjectProperty<LeaseRow> selectedProperty() {
        return held.selected();
    }

    public ReadOnlyStringProperty titleProperty() {
        return reading.title();
    }

    public ReadOnlyStringProperty bylineProperty() {
        return reading.byline();
    }

    public ReadOnlyStringProperty metaProperty() {
        return reading.meta();
    }

    public ReadOnlyStringProperty bodyProperty() {
        return reading.body();
    }

    public ObservableList<HistoryEntry> history() {
        return reading.history();
    }

    /** The history as the editor reads it: heartbeat renewals collapsed into one line. */
    public ObservableList<String> historyLines() {
        return reading.historyLines();
    }

    public ObjectProperty<Verdict> verdictProperty() {
        return drafts.verdict();
    }

    public StringProperty notesProperty() {
        return drafts.notes();
    }

    public ReadOnlyStringProperty draftStatusProperty() {
        return drafts.status();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading;
    }

    public ReadOnlyBooleanProperty submittingProperty() {
        return submitting;
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return connection.offlineProperty();
    }

    public ReadOnlyStringProperty bannerProperty() {
        return connection.bannerProperty();
    }

    public ReadOnlyStringProperty emptyTextProperty() {
        return emptyText;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    public ObservableList<Notice> notices() {
        return notices.list();
    }

    public BooleanBinding canSubmitProperty() {
        return canSubmit;
    }

    /** Why Submit is disabled (empty when it is not). */
    public StringBinding whyNoSubmitProperty() {
        return whyNoSubmit;
    }

    public BooleanBinding canReleaseProperty() {
        return canRelease;
    }

    public BooleanBinding canReloadProperty() {
        return canReload;
    }

    /** "3 articles waiting on News — F5" while the editor has room and work waits; empty otherwise. */
    public ReadOnlyStringProperty waitingProperty() {
        return watcher.waiting();
    }

    public ReadOnlyIntegerProperty waitingCountProperty() {
        return watcher.waitingCount();
    }

    /** The editor's choice: the list tops itself up when work is waiting. */
    public BooleanProperty autoTopUpProperty() {
        return remembered.autoTopUpProperty();
    }

    /** Revisions in the reader: the diff, "a newer version arrived", a decision refused as outdated (issue 13). */
    public RevisionReader revisions() {
        return revisions;
    }

    /** The window's remembered settings (topping up, text size). */
    public EditorSettings settings() {
        return remembered;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The desks worked on today, by name: "News, Sport". */
    public ReadOnlyStringProperty deskSummaryProperty() {
        return deskSummary;
    }
}
