package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleDetail;
import org.copydesk.review.Assignment;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Drafts;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewQueue;
import org.copydesk.review.ReviewServices;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Everything the editor's window shows and does, without a single control: the articles held
 * with live countdowns, the reader, the review panel with autosaved drafts, the heartbeat that
 * keeps leases while the editor works, warnings before a lease runs out, plain-words notices when
 * one is lost, and offline mode with reconnection. All database work goes through
 * {@link TaskExecutor}; every method here is called on the FX thread.
 */
public final class EditorViewModel implements AutoCloseable {

    /** Timings; {@link #defaults()} for the app, shorter ones in tests. */
    public record Settings(Duration tick, Duration heartbeatInterval, Duration idleTimeout, Duration warnBefore,
                           Duration autosaveDelay, Duration firstReconnectDelay, Duration maxReconnectDelay,
                           Duration noticeLifetime) {
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2),
                    Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(8));
        }
    }

    /** The editor's notes for one article as typed, kept here until the database has them. */
    private static final class LocalDraft {
        Verdict verdict;
        String notes = "";
        boolean dirty;
        long editedAtNanos;
        UUID pendingRequest;
    }

    private final ReviewServices services;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Editor editor;
    private final List<String> desks;
    private final Settings settings;
    private final ZoneId zone;
    private final Map<String, String> deskNames;

    private final ObservableList<LeaseRow> articles = FXCollections.observableArrayList();
    private final ObjectProperty<LeaseRow> selected = new SimpleObjectProperty<>();
    private final StringProperty title = new SimpleStringProperty("");
    private final StringProperty byline = new SimpleStringProperty("");
    private final StringProperty meta = new SimpleStringProperty("");
    private final StringProperty body = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final ObjectProperty<Verdict> verdict = new SimpleObjectProperty<>();
    private final StringProperty notes = new SimpleStringProperty("");
    private final StringProperty draftStatus = new SimpleStringProperty("");
    private final BooleanProperty loading = new SimpleBooleanProperty();
    private final BooleanProperty submitting = new SimpleBooleanProperty();
    private final BooleanProperty offline = new SimpleBooleanProperty();
    private final StringProperty banner = new SimpleStringProperty("");
    private final StringProperty emptyText = new SimpleStringProperty("Press Get articles (F5) to start.");
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty deskSummary = new SimpleStringProperty("");
    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private final BooleanBinding canSubmit;
    private final BooleanBinding canRelease;
    private final BooleanBinding canReload;

    private final Map<Long, LocalDraft> drafts = new HashMap<>();
    /** Leases ("article:token") this window has let go of (decided, given back, lost, run out): never shown again. */
    private final Set<String> gone = new HashSet<>();
    private final List<AutoCloseable> timers = new ArrayList<>();
    private boolean loadingSelection;
    private long lastActivityNanos;
    private long lastHeartbeatNanos;
    private long nextReconnectNanos;
    private Duration reconnectDelay;
    private boolean heartbeatRunning;
    private boolean probing;
    private Optional<LocalDateTime> nextAvailable = Optional.empty();
    private boolean everLoaded;

    public EditorViewModel(ReviewServices services, TaskExecutor tasks, Ticker ticker, Editor editor, List<String> desks,
                           Settings settings, ZoneId zone) {
        this.services = services;
        this.tasks = tasks;
        this.ticker = ticker;
        this.editor = editor;
        this.desks = List.copyOf(desks);
        this.settings = settings;
        this.zone = zone;
        this.deskNames = new HashMap<>();
        this.reconnectDelay = settings.firstReconnectDelay();
        this.lastActivityNanos = ticker.nanoTime();
        this.lastHeartbeatNanos = ticker.nanoTime();
        canSubmit = Bindings.createBooleanBinding(() -> selected.get() != null && verdict.get() != null
                        && (!verdict.get().needsNotes() || !notes.get().isBlank()) && !submitting.get() && !offline.get(),
                selected, verdict, notes, submitting, offline);
        canRelease = Bindings.createBooleanBinding(() -> selected.get() != null && !submitting.get() && !offline.get(),
                selected, submitting, offline);
        canReload = loading.not().and(offline.not());
        selected.addListener((obs, old, row) -> onSelectionChanged(old, row));
        notes.addListener((obs, old, text) -> onTyped());
        verdict.addListener((obs, old, v) -> onTyped());
    }

    /** Starts the countdowns, heartbeat and autosave, and loads what the editor already holds. */
    public void start() {
        timers.add(ticker.every(settings.tick(), this::tick));
        deskSummary.set(String.join(", ", desks));
        tasks.run("load desks", () -> services.newsroom().desks(), list -> {
            list.forEach(d -> deskNames.put(d.id(), d.name()));
            deskSummary.set(desks.stream().map(this::deskName).collect(Collectors.joining(", ")));
            updateEmptyText();
        }, this::onFailure);
        reload();
    }

    // --- commands ---------------------------------------------------------------------------------

    /** Get articles / Reload (F5): refreshes the leases held and tops up to capacity. */
    public void reload() {
        if (loading.get() || offline.get()) {
            return;
        }
        activity();
        loading.set(true);
        List<LeaseRow> before = List.copyOf(articles);
        tasks.run("get articles", () -> services.queue().claim(editor.id(), desks, null), assignment -> {
            loading.set(false);
            everLoaded = true;
            apply(assignment, before);
        }, failure -> {
            loading.set(false);
            onFailure(failure);
        });
    }

    public void selectNext() {
        move(1);
    }

    public void selectPrevious() {
        move(-1);
    }

    private void move(int step) {
        if (articles.isEmpty()) {
            return;
        }
        int i = articles.indexOf(selected.get());
        int next = i < 0 ? 0 : Math.floorMod(i + step, articles.size());
        selected.set(articles.get(next));
        activity();
    }

    /** Submits the chosen decision on the selected article. */
    public void submit() {
        if (!canSubmit.get()) {
            if (selected.get() != null && verdict.get() != null && verdict.get().needsNotes() && notes.get().isBlank()) {
                post(Notice.Kind.WARNING, verdict.get().label() + " needs a note: say why.");
            }
            return;
        }
        activity();
        LeaseRow row = selected.get();
        LocalDraft draft = draftFor(row.id());
        draft.verdict = verdict.get();
        draft.notes = notes.get();
        if (draft.pendingRequest == null) {
            // one id per submission, reused if it has to be retried, so it is never applied twice
            draft.pendingRequest = UUID.randomUUID();
        }
        DecisionRequest request = new DecisionRequest(draft.pendingRequest, row.id(), row.article().lease(), draft.verdict,
                draft.notes);
        submitting.set(true);
        tasks.run("submit decision", () -> services.decisions().submit(request), outcome -> {
            submitting.set(false);
            onDecided(row, request, outcome);
        }, failure -> {
            submitting.set(false);
            onFailure(failure);
        });
    }

    /** Gives the selected article back to the queue; the notes stay as a draft. */
    public void releaseSelected() {
        if (!canRelease.get()) {
            return;
        }
        activity();
        LeaseRow row = selected.get();
        flushDraft(row.id());
        tasks.run("release", () -> services.queue().release(row.article()), lost -> {
            removeRow(row);
            lost.ifPresentOrElse(l -> post(Notice.Kind.WARNING, l.message()),
                    () -> post(Notice.Kind.INFO, "Gave back \u201c" + row.article().title() + "\u201d."));
        }, this::onFailure);
    }

    /** "Keep it": renews one lease now. */
    public void keep(LeaseRow row) {
        activity();
        renew(List.of(row));
    }

    public void dismiss(Notice notice) {
        notices.remove(notice);
    }

    /** The view calls this on any key press or mouse action: the editor is at work. */
    public void activity() {
        lastActivityNanos = ticker.nanoTime();
    }

    // --- periodic work --------------------------------------------------------------------------

    /** Every tick: countdowns, warnings, autosave, heartbeat, reconnection, fading notices. */
    void tick() {
        long now = ticker.nanoTime();
        for (LeaseRow row : List.copyOf(articles)) {
            if (row.tick(now).isZero()) {
                lapse(row); // the server's clock says the lease is over: it is not the editor's any more
                continue;
            }
            if (row.shouldWarn(settings.warnBefore())) {
                HeldArticle a = row.article();
                post(Notice.withAction(Notice.Kind.WARNING, "\u201c" + a.title() + "\u201d goes back to the queue in "
                        + Formats.roughly(row.remainingProperty().get()) + ".", "Keep it", () -> keep(row), now));
            }
        }
        autosave(now);
        if (!offline.get() && !heartbeatRunning && (now - lastHeartbeatNanos >= settings.heartbeatInterval().toNanos()
                || soonerRenewalNeeded(now))) {
            heartbeat(now);
        }
        if (offline.get() && !probing && now >= nextReconnectNanos) {
            probe();
        }
        notices.removeIf(n -> !n.sticky() && now - n.postedAtNanos() > settings.noticeLifetime().toNanos());
        updateSummary();
    }

    /**
     * A working editor's leases never run out under them: a lease shorter than the heartbeat
     * interval (a desk may lease for 30 s) is renewed when two thirds of it have passed. An idle
     * editor's leases are left to run out, as with the heartbeat.
     */
    private boolean soonerRenewalNeeded(long now) {
        boolean idle = now - lastActivityNanos > settings.idleTimeout().toNanos();
        return !idle && now - lastHeartbeatNanos >= Duration.ofSeconds(5).toNanos()
                && articles.stream().anyMatch(LeaseRow::renewalDue);
    }

    private void heartbeat(long now) {
        lastHeartbeatNanos = now;
        boolean idle = now - lastActivityNanos > settings.idleTimeout().toNanos();
        if (!idle && !articles.isEmpty()) {
            renew(List.copyOf(articles)); // abandoned work goes back to the queue when its leases run out
        }
        pickUpNewlyHeld();
    }

    /**
     * Articles the editor holds that this window does not show yet (a supervisor gave them to the
     * editor, or another window claimed them) join the list, with who gave them and why; the next
     * heartbeat renews them like the others.
     */
    private void pickUpNewlyHeld() {
        if (offline.get()) {
            return;
        }
        Set<Long> shown = articles.stream().map(LeaseRow::id).collect(Collectors.toSet());
        Set<String> letGo = Set.copyOf(gone);
        tasks.run("check held articles", () -> {
            List<Arrival> arrivals = new ArrayList<>();
            for (HeldArticle h : services.queue().held(editor.id())) {
                if (!shown.contains(h.id()) && !letGo.contains(key(h)) && !h.lease().remainingAtRead().isZero()) {
                    arrivals.add(new Arrival(h, services.queue().arrival(h)));
                }
            }
            return arrivals;
        }, arrivals -> {
            long now = ticker.nanoTime();
            for (Arrival a : arrivals) {
                boolean present = articles.stream().anyMatch(r -> r.id() == a.article().id());
                if (present || gone.contains(key(a.article()))) {
                    continue;
                }
                articles.add(new LeaseRow(a.article(), now));
                post(Notice.Kind.INFO, a.message());
            }
            if (selected.get() == null && !articles.isEmpty()) {
                selected.set(articles.get(0));
            }
            updateEmptyText();
        }, this::onFailure);
    }

    private record Arrival(HeldArticle article, String message) {
    }

    private static String key(HeldArticle a) {
        return a.id() + ":" + a.lease().token();
    }

    /**
     * A lease whose countdown reached zero leaves the list at once, its notes saved as a draft,
     * with the reason in plain words from the database (run out, taken, taken back, given away).
     */
    private void lapse(LeaseRow row) {
        HeldArticle a = row.article();
        LocalDraft d = drafts.get(row.id());
        if (d != null) {
            d.dirty = d.dirty || !d.notes.isEmpty() || d.verdict != null;
            d.pendingRequest = null;
            flushDraft(row.id());
        }
        notices.removeIf(n -> n.action() != null && n.text().contains(a.title()));
        removeRow(row);
        tasks.run("explain a lapsed lease", () -> services.queue().lapsed(a), lost -> post(Notice.Kind.ERROR, lost.message()),
                failure -> {
                    post(Notice.Kind.ERROR, "Your time on \u201c" + a.title() + "\u201d ran out."
                            + " Your notes are kept as a draft.");
                    onFailure(failure);
                });
    }

    private void renew(List<LeaseRow> rows) {
        if (rows.isEmpty() || offline.get()) {
            return;
        }
        heartbeatRunning = true;
        List<HeldArticle> held = rows.stream().map(LeaseRow::article).toList();
        tasks.run("renew leases", () -> services.queue().renew(editor.id(), held), renewal -> {
            heartbeatRunning = false;
            long now = ticker.nanoTime();
            Map<Long, HeldArticle> renewed = renewal.renewed().stream().collect(Collectors.toMap(HeldArticle::id, h -> h));
            for (LeaseRow row : List.copyOf(articles)) {
                HeldArticle r = renewed.get(row.id());
                if (r != null) {
                    row.update(r, now);
                    notices.removeIf(n -> n.action() != null && n.text().contains(row.article().title()));
                }
            }
            renewal.lost().forEach(this::onLost);
        }, failure -> {
            heartbeatRunning = false;
            onFailure(failure);
        });
    }

    private void autosave(long now) {
        for (Map.Entry<Long, LocalDraft> e : drafts.entrySet()) {
            LocalDraft d = e.getValue();
            if (d.dirty && now - d.editedAtNanos >= settings.autosaveDelay().toNanos() && !offline.get()) {
                flushDraft(e.getKey());
            }
        }
    }

    private void flushDraft(long articleId) {
        LocalDraft d = drafts.get(articleId);
        if (d == null || !d.dirty || offline.get()) {
            return;
        }
        d.dirty = false;
        Verdict v = d.verdict;
        String text = d.notes;
        boolean current = selected.get() != null && selected.get().id() == articleId;
        if (current) {
            draftStatus.set("Saving\u2026");
        }
        tasks.run("save draft", () -> {
            services.drafts().save(articleId, editor.id(), v, text);
            return true;
        }, ok -> {
            if (selected.get() != null && selected.get().id() == articleId) {
                draftStatus.set(d.dirty ? "Not saved yet" : "Draft saved");
            }
        }, failure -> {
            d.dirty = true; // keep it; it is saved when the database is back
            onFailure(failure);
        });
    }

    private void probe() {
        probing = true;
        tasks.run("reconnect", () -> {
            services.queue().recordPresence(editor.id());
            return true;
        }, ok -> {
            probing = false;
            offline.set(false);
            banner.set("");
            reconnectDelay = settings.firstReconnectDelay();
            post(Notice.Kind.SUCCESS, "Back online. Everything you typed is being saved.");
            drafts.keySet().forEach(this::flushDraft);
            reload();
        }, failure -> {
            probing = false;
            reconnectDelay = reconnectDelay.multipliedBy(2).compareTo(settings.maxReconnectDelay()) > 0
                    ? settings.maxReconnectDelay() : reconnectDelay.multipliedBy(2);
            nextReconnectNanos = ticker.nanoTime() + reconnectDelay.toNanos();
            banner.set(offlineBanner());
        });
    }

    // --- outcomes -------------------------------------------------------------------------------

    private void apply(Assignment assignment, List<LeaseRow> before) {
        long now = ticker.nanoTime();
        Map<Long, LeaseRow> existing = articles.stream().collect(Collectors.toMap(LeaseRow::id, r -> r));
        List<LeaseRow> rows = new ArrayList<>();
        for (HeldArticle a : assignment.articles()) {
            LeaseRow row = existing.remove(a.id());
            if (row == null) {
                row = new LeaseRow(a, now);
            } else {
                row.update(a, now);
            }
            rows.add(row);
        }
        LeaseRow keepSelected = selected.get();
        articles.setAll(rows);
        if (keepSelected != null && rows.contains(keepSelected)) {
            selected.set(keepSelected);
        } else if (selected.get() == null || !rows.contains(selected.get())) {
            selected.set(rows.isEmpty() ? null : rows.get(0));
        }
        nextAvailable = assignment.nextAvailableAt();
        updateEmptyText();
        // Rows held before that the claim no longer returns were lost; a renew says why.
        List<LeaseRow> vanished = before.stream().filter(r -> existing.containsKey(r.id())).toList();
        if (!vanished.isEmpty()) {
            renew(vanished);
        }
        if (assignment.claimed() > 0) {
            post(Notice.Kind.INFO, assignment.claimed() == 1 ? "1 new article." : assignment.claimed() + " new articles.");
        }
        lastHeartbeatNanos = now;
    }

    private void onDecided(LeaseRow row, DecisionRequest request, DecisionOutcome outcome) {
        if (outcome instanceof DecisionOutcome.Recorded || outcome instanceof DecisionOutcome.AlreadyRecorded) {
            drafts.remove(row.id());
            String what = switch (request.verdict()) {
                case APPROVE -> "Approved";
                case REJECT -> "Rejected";
                case SEND_BACK -> "Sent back";
                case UNREVIEWABLE -> "Sent to quarantine";
            };
            boolean auto = outcome instanceof DecisionOutcome.Recorded r && r.autoQuarantined();
            removeRow(row);
            post(Notice.Kind.SUCCESS, what + " \u201c" + row.article().title() + "\u201d"
                    + (auto ? " (sent back too often: it goes to quarantine)." : "."));
        } else if (outcome instanceof DecisionOutcome.Lost lost) {
            LocalDraft d = draftFor(row.id());
            d.pendingRequest = null;
            d.dirty = true;
            flushDraft(row.id());
            removeRow(row);
            post(Notice.Kind.ERROR, lost.message());
        } else if (outcome instanceof DecisionOutcome.Refused refused) {
            draftFor(row.id()).pendingRequest = null;
            post(Notice.Kind.WARNING, refused.message());
        }
    }

    private void onLost(ReviewQueue.LostArticle lost) {
        if (gone.contains(key(lost.article()))) {
            return; // already let go of, and said why
        }
        articles.stream().filter(r -> r.id() == lost.article().id()).findFirst().ifPresent(row -> {
            LocalDraft d = drafts.get(row.id());
            if (d != null) {
                d.dirty = d.dirty || !d.notes.isEmpty();
                flushDraft(row.id());
            }
            removeRow(row);
        });
        post(Notice.Kind.ERROR, lost.message());
    }

    private void removeRow(LeaseRow row) {
        gone.add(key(row.article()));
        int i = articles.indexOf(row);
        articles.remove(row);
        if (selected.get() == row || selected.get() == null) {
            selected.set(articles.isEmpty() ? null : articles.get(Math.min(Math.max(i, 0), articles.size() - 1)));
        }
        updateEmptyText();
    }

    private void onFailure(Throwable failure) {
        if (ConnectionTrouble.isConnectionLost(failure)) {
            if (!offline.get()) {
                offline.set(true);
                reconnectDelay = settings.firstReconnectDelay();
                nextReconnectNanos = ticker.nanoTime() + reconnectDelay.toNanos();
                banner.set(offlineBanner());
            }
            return;
        }
        post(Notice.Kind.ERROR, ConnectionTrouble.describe(failure));
    }

    private String offlineBanner() {
        return "Copydesk cannot reach the database. Your notes are kept on this computer; trying again in "
                + Math.max(1, reconnectDelay.toSeconds()) + " s.";
    }

    // --- selection and drafts -------------------------------------------------------------------

    private void onSelectionChanged(LeaseRow old, LeaseRow row) {
        if (old != null) {
            flushDraft(old.id());
        }
        loadingSelection = true;
        try {
            if (row == null) {
                title.set("");
                byline.set("");
                meta.set("");
                body.set("");
                history.clear();
                verdict.set(null);
                notes.set("");
                draftStatus.set("");
                return;
            }
            HeldArticle a = row.article();
            title.set(a.title());
            byline.set(a.byline() == null ? "" : "By " + a.byline());
            meta.set(describeMeta(a));
            body.set("Loading\u2026");
            LocalDraft local = drafts.get(row.id());
            verdict.set(local == null ? null : local.verdict);
            notes.set(local == null ? "" : local.notes);
            draftStatus.set(local != null && local.dirty ? "Not saved yet" : "");
        } finally {
            loadingSelection = false;
        }
        long id = row.id();
        tasks.run("open article", () -> new Opened(services.queue().article(id), services.history().of(id),
                services.drafts().load(id, editor.id())), opened -> {
            if (selected.get() == null || selected.get().id() != id) {
                return; // the editor moved on meanwhile
            }
            opened.detail().ifPresent(d -> body.set(d.body()));
            history.setAll(opened.history());
            LocalDraft local = drafts.get(id);
            if ((local == null || (!local.dirty && local.notes.isEmpty())) && opened.draft().isPresent()) {
                Drafts.Draft saved = opened.draft().get();
                loadingSelection = true;
                try {
                    verdict.set(saved.verdict());
                    notes.set(saved.notes());
                } finally {
                    loadingSelection = false;
                }
                LocalDraft d = draftFor(id);
                d.verdict = saved.verdict();
                d.notes = saved.notes();
                draftStatus.set("Draft restored from " + Formats.localDayClock(saved.savedAt(), zone));
            }
        }, this::onFailure);
    }

    private record Opened(Optional<ArticleDetail> detail, List<HistoryEntry> history, Optional<Drafts.Draft> draft) {
    }

    private void onTyped() {
        if (loadingSelection || selected.get() == null) {
            return;
        }
        LocalDraft d = draftFor(selected.get().id());
        if (Objects.equals(d.verdict, verdict.get()) && Objects.equals(d.notes, notes.get())) {
            return;
        }
        d.verdict = verdict.get();
        d.notes = notes.get() == null ? "" : notes.get();
        d.dirty = true;
        d.pendingRequest = null; // a changed decision is a new submission
        d.editedAtNanos = ticker.nanoTime();
        draftStatus.set(offline.get() ? "Kept on this computer until the database is back" : "Not saved yet");
        activity();
    }

    private LocalDraft draftFor(long articleId) {
        return drafts.computeIfAbsent(articleId, k -> new LocalDraft());
    }

    private String describeMeta(HeldArticle a) {
        StringBuilder s = new StringBuilder(deskName(a.desk())).append(" \u00b7 priority ").append(a.priority());
        if (a.attempts() > 0) {
            s.append(" \u00b7 sent back ").append(a.attempts()).append(a.attempts() == 1 ? " time" : " times");
        }
        s.append(" \u00b7 ").append(a.externalId());
        return s.toString();
    }

    private String deskName(String id) {
        return deskNames.getOrDefault(id, id);
    }

    private void updateEmptyText() {
        if (!articles.isEmpty()) {
            emptyText.set("");
            return;
        }
        if (!everLoaded) {
            emptyText.set("Press Get articles (F5) to start.");
            return;
        }
        String names = desks.stream().map(this::deskName).collect(Collectors.joining(" and "))
                .replaceFirst(" and (?=.* and )", ", ");
        emptyText.set("Nothing on " + (names.isEmpty() ? "your desks" : names) + " right now"
                + nextAvailable.map(t -> "; next article available at " + Formats.localClock(t, zone) + ".").orElse("."));
    }

    private void updateSummary() {
        summary.set(articles.size() + " of " + editor.capacity() + " held");
    }

    /** A notice from outside the editor's own work (e.g. the app saw another window signed in as this person). */
    public void tell(Notice.Kind kind, String text) {
        post(kind, text);
    }

    private void post(Notice.Kind kind, String text) {
        post(Notice.of(kind, text, ticker.nanoTime()));
    }

    private void post(Notice notice) {
        notices.add(0, notice);
        while (notices.size() > 4) {
            notices.remove(notices.size() - 1);
        }
    }

    @Override
    public void close() {
        if (selected.get() != null) {
            flushDraft(selected.get().id());
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
        return articles;
    }

    public ObjectProperty<LeaseRow> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty titleProperty() {
        return title;
    }

    public ReadOnlyStringProperty bylineProperty() {
        return byline;
    }

    public ReadOnlyStringProperty metaProperty() {
        return meta;
    }

    public ReadOnlyStringProperty bodyProperty() {
        return body;
    }

    public ObservableList<HistoryEntry> history() {
        return history;
    }

    public ObjectProperty<Verdict> verdictProperty() {
        return verdict;
    }

    public StringProperty notesProperty() {
        return notes;
    }

    public ReadOnlyStringProperty draftStatusProperty() {
        return draftStatus;
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading;
    }

    public ReadOnlyBooleanProperty submittingProperty() {
        return submitting;
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return offline;
    }

    public ReadOnlyStringProperty bannerProperty() {
        return banner;
    }

    public ReadOnlyStringProperty emptyTextProperty() {
        return emptyText;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    public ObservableList<Notice> notices() {
        return notices;
    }

    public BooleanBinding canSubmitProperty() {
        return canSubmit;
    }

    public BooleanBinding canReleaseProperty() {
        return canRelease;
    }

    public BooleanBinding canReloadProperty() {
        return canReload;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The desks worked on today, by name: "News, Sport". */
    public ReadOnlyStringProperty deskSummaryProperty() {
        return deskSummary;
    }
}
