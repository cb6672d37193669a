package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BooleanSupplier;
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
import javafx.beans.property.StringProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import org.copydesk.review.Editor;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;
import org.copydesk.ui.common.Timers;

/**
 * Everything the editor's window shows and does, without a single control. It builds the parts,
 * which share one {@link EditorContext}, and is what the view binds to: taking and giving back
 * articles ({@link ArticleClaims}), the open article ({@link OpenArticle}) and its revisions
 * ({@link RevisionReader}), drafts ({@link DraftKeeper}), deciding ({@link DecisionQueue}),
 * keeping leases ({@link LeaseUpkeep}), deadlines ({@link DueWatch}) and keeping the list true without F5 ({@link LiveList}).
 * All database work goes through {@link TaskExecutor}; every method here is called on the FX thread.
 */
public final class EditorViewModel implements AutoCloseable {

    /** How long a decision can be taken back before it is sent. */
    public static final Duration UNDO_WINDOW = DecisionQueue.UNDO_WINDOW;

    /**
     * Timings; {@link #defaults()} for the app, shorter ones in tests.
     *
     * @param watchInterval   how often the window asks whether its list is still true (within 5 s of a change)
     * @param unansweredAfter a call to the database unanswered this long means it is not answering: the
     *                        window goes offline as for a lost connection (every call the window makes
     *                        takes milliseconds; a frozen server would otherwise hang them until the
     *                        driver's socket timeout, a minute, with nothing on screen)
     */
    public record Settings(Duration tick, Duration heartbeatInterval, Duration idleTimeout, Duration warnBefore,
                           Duration autosaveDelay, Duration firstReconnectDelay, Duration maxReconnectDelay,
                           Duration noticeLifetime, Duration watchInterval, Duration unansweredAfter) {

        public static final Duration WATCH_INTERVAL = Duration.ofSeconds(3);
        /**
         * How long a window holding nothing goes untouched (no key, click or decision) before its list
         * is asked every {@link #QUIET_WATCH_INTERVAL} instead of every {@link #WATCH_INTERVAL} (why: {@code LiveList}).
         */
        public static final Duration QUIET_AFTER = Duration.ofSeconds(60);
        /** How often a window holding nothing asks for its list once untouched for {@link #QUIET_AFTER}. */
        public static final Duration QUIET_WATCH_INTERVAL = Duration.ofSeconds(15);
        /** How often a window holding nothing asks for its list while its editor is away (the idle timeout passed). */
        public static final Duration AWAY_WATCH_INTERVAL = Duration.ofSeconds(30);
        public static final Duration UNANSWERED_AFTER = Duration.ofSeconds(3);

        public Settings(Duration tick, Duration heartbeatInterval, Duration idleTimeout, Duration warnBefore,
                        Duration autosaveDelay, Duration firstReconnectDelay, Duration maxReconnectDelay,
                        Duration noticeLifetime) {
            this(tick, heartbeatInterval, idleTimeout, warnBefore, autosaveDelay, firstReconnectDelay, maxReconnectDelay,
                    noticeLifetime, WATCH_INTERVAL, UNANSWERED_AFTER);
        }

        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2),
                    Duration.ofMillis(800), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(8), WATCH_INTERVAL,
                    UNANSWERED_AFTER);
        }
    }

    private final EditorContext context;
    private final HeldList held;
    private final EditorSettings remembered;
    private final DraftKeeper drafts;
    private final LeaseUpkeep upkeep;
    private final DueWatch due;
    private final RevisionReader revisions;
    private final OpenArticle reading;
    private final StageChoices stages;
    private final KeyCommands keys;
    private final ArticleClaims claims;
    private final DecisionQueue decisions;
    private final LiveList live;
    private final ListWords words;
    private final Reconnection reconnection;
    private BooleanSupplier inFront = () -> true;
    private final BooleanBinding canRelease;
    private final BooleanBinding canReload;
    private final Timers timers = new Timers();

    public EditorViewModel(ReviewSession session, TaskExecutor tasks, Ticker ticker, Editor editor, List<String> desks,
                           Settings settings, ZoneId zone) {
        this.context = new EditorContext(session, tasks, ticker, editor, desks, settings, zone);
        this.held = context.held;
        this.remembered = new EditorSettings(tasks);
        this.drafts = new DraftKeeper(context);
        this.upkeep = new LeaseUpkeep(context, drafts);
        this.due = new DueWatch(context, remembered.dueWarningMinutesProperty());
        this.revisions = new RevisionReader(context, remembered.showChangesProperty());
        this.stages = new StageChoices(context);
        this.reading = new OpenArticle(context, drafts, revisions, stages);
        this.claims = new ArticleClaims(context, drafts, upkeep, reading);
        this.decisions = new DecisionQueue(context, drafts, upkeep, revisions, stages);
        this.live = new LiveList(context, upkeep, revisions, claims, remembered.autoTopUpProperty());
        this.words = new ListWords(context, claims, live.waiting());
        this.reconnection = new Reconnection(context, drafts, upkeep);
        this.keys = new KeyCommands(held, decisions, revisions, upkeep);
        words.deskChanges().addListener((o, was, now) -> reading.desksChanged());

        var selected = held.selected();
        var offline = context.connection.offlineProperty();
        canRelease = Bindings.createBooleanBinding(() -> selected.get() != null && !decisions.sending().get() && !offline.get(),
                selected, decisions.sending(), offline);
        canReload = claims.loadingProperty().not().and(offline.not());
        selected.addListener((obs, old, row) -> {
            drafts.show(old, row); // first: the opening read may restore the new article's draft
            stages.show(row);
            reading.show(row);
        });
        held.rows().addListener((ListChangeListener<LeaseRow>) c ->
                reading.keepOnly(held.rows().stream().map(LeaseRow::id).collect(Collectors.toSet())));
    }

    /** Starts the countdowns, heartbeat, list watch and autosave, and gets the editor's articles. */
    public void start() {
        startWithoutClaiming();
        claims.reload();
    }

    /** As {@link #start()}, claiming nothing until Get articles: a supervisor signs in to the dashboard and reviews by choice. */
    public void startWithoutClaiming() {
        timers.add(context.ticker.every(context.settings.tick(), this::tick));
        words.start();
    }

    /** Where the window's alerts for the desktop go (a lease or deadline near, a lease lost); sent on while the window is behind. */
    public void onAttention(Consumer<String> alerts) {
        context.onDesktopAlerts(alerts);
    }

    /** Whether the window is in front: notices do not fade while nobody can read them. */
    public void inFrontWhen(BooleanSupplier inFront) {
        this.inFront = inFront;
    }

    // --- commands ---------------------------------------------------------------------------------

    /** Get articles / Reload (F5): refreshes the leases held and tops up to capacity. */
    public void reload() {
        claims.reload();
    }

    public void selectNext() {
        held.selectBy(1);
        context.activity();
    }

    public void selectPrevious() {
        held.selectBy(-1);
        context.activity();
    }

    /** Submits the chosen decision: it leaves the list at once, is sent after {@link #UNDO_WINDOW} ({@link DecisionQueue}). */
    public void submit() {
        decisions.submit();
    }

    /** Undo: the decision is not sent; the article is back, selected, with its decision and notes. */
    public void undo(long articleId) {
        decisions.undo(articleId);
    }

    /** Gives the selected article back to the queue; the notes stay as a draft. */
    public void releaseSelected() {
        if (canRelease.get()) {
            claims.releaseSelected();
        }
    }

    /** Ctrl+Shift+R: asks first, and the same key again gives it back ({@link ArticleClaims#askToRelease}). */
    public void releaseSelectedByKey() {
        if (canRelease.get()) {
            claims.askToRelease();
        }
    }

    /** Before the window closes or the editor signs out: see {@link ArticleClaims#giveBackAll}. */
    public void giveBackAll(Runnable then) {
        claims.giveBackAll(then);
    }

    /** "Keep it": renews one lease now. */
    public void keep(LeaseRow row) {
        upkeep.keep(row);
    }

    public void dismiss(Notice notice) {
        context.notices.dismiss(notice);
    }

    /** The view calls this on any key press or mouse action: the editor is at work. */
    public void activity() {
        context.activity();
    }

    /** A notice from outside the editor's own work (e.g. the app saw another window signed in as this person). */
    public void tell(Notice.Kind kind, String text) {
        context.notices.post(kind, text);
    }

    /** Every tick: countdowns, warnings (leases, deadlines), heartbeat, the list watch, autosave, reconnection, fading notices. */
    void tick() {
        reconnection.noticeSilence();
        decisions.sendDue(false);
        upkeep.tick();
        due.tick();
        if (!context.connection.isOffline()) {
            drafts.autosave();
        }
        live.tick();
        reconnection.tick();
        context.notices.fade(inFront.getAsBoolean());
        words.update();
    }

    @Override
    public void close() {
        decisions.sendDue(true); // decisions made are sent, not dropped with the window
        if (held.selected().get() != null) {
            drafts.flush(held.selected().get().id());
        }
        timers.close();
    }

    // --- what the view binds to -----------------------------------------------------------------

    public Editor editor() {
        return context.editor;
    }

    /** The desks the editor works on now. */
    public List<String> desks() {
        return context.desks();
    }

    public String deskDisplayName(String id) {
        return context.deskName(id);
    }

    /** The selected article's stage, the decisions at its stages before, and what a decision there may choose. */
    StageChoices stages() {
        return stages;
    }

    /** The selected article's deadline, for the reader's header (the cards read their own rows). */
    DueWatch due() {
        return due;
    }

    /** Undo, "Show the new version" and "Keep it" by their keys. */
    KeyCommands keys() {
        return keys;
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
        return claims.loadingProperty();
    }

    public ReadOnlyBooleanProperty submittingProperty() {
        return decisions.sending();
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return context.connection.offlineProperty();
    }

    public ReadOnlyStringProperty bannerProperty() {
        return context.connection.bannerProperty();
    }

    /** What the empty list says: nothing yet, nothing on the desks (and when the next comes), or work waiting. */
    public ReadOnlyStringProperty emptyTextProperty() {
        return words.empty();
    }

    public ReadOnlyStringProperty summaryProperty() {
        return words.summary();
    }

    public ObservableList<Notice> notices() {
        return context.notices.list();
    }

    public BooleanBinding canSubmitProperty() {
        return decisions.canSubmit();
    }

    /** Why Submit is disabled (empty when it is not). */
    public StringBinding whyNoSubmitProperty() {
        return decisions.whyNoSubmit();
    }

    public BooleanBinding canReleaseProperty() {
        return canRelease;
    }

    public BooleanBinding canReloadProperty() {
        return canReload;
    }

    /** "3 articles waiting on News — F5" while the editor has room and work waits; empty otherwise. */
    public ReadOnlyStringProperty waitingProperty() {
        return live.waiting();
    }

    /** The editor's choice: the list tops itself up when work is waiting. */
    public BooleanProperty autoTopUpProperty() {
        return remembered.autoTopUpProperty();
    }

    /** Revisions in the reader: the diff, "a newer version arrived", a decision refused as outdated. */
    public RevisionReader revisions() {
        return revisions;
    }

    /** The window's remembered settings (topping up, text size). */
    public EditorSettings settings() {
        return remembered;
    }

    public ZoneId zone() {
        return context.zone;
    }

    /** Counts the times the desks' names or the editor's desks changed: what shows a desk's name shows it again. */
    public ReadOnlyIntegerProperty deskChangesProperty() {
        return words.deskChanges();
    }

    /** The desks worked on today, by name, with the stages chosen where only some are: "News · Copy edit, Sport". */
    public ReadOnlyStringProperty deskSummaryProperty() {
        return words.desks();
    }

    /** The editor kept a new choice of desks and stages: the top line reads it now rather than within the minute. */
    public void workChoiceKept() {
        words.readSoon();
    }
}
