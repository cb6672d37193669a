package org.copydesk.ui.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.collections.ObservableList;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;
import org.copydesk.ui.common.Timers;

/**
 * The supervisor's dashboard without a single control: the tabs' view models, and what they
 * share, the ticker, the notices and whether the database can be reached. Each tab's work lives
 * in its own view model ({@link HoldersViewModel} with {@link LeaseActionsViewModel}, {@link QueueViewModel} with
 * {@link QueueActionsViewModel},
 * {@link HealthViewModel}, {@link AuditViewModel}, {@link QuarantineViewModel}, {@link RelayViewModel},
 * {@link ImportViewModel}).
 *
 * <p>All database work goes through {@link TaskExecutor}; every method here runs on the FX thread.
 */
public final class DashboardViewModel implements AutoCloseable {

    /**
     * Timings and thresholds; {@link #defaults()} for the app.
     *
     * @param unansweredAfter a read or an action unanswered this long means the database is not
     *                        answering: the banner says so until it answers. Longer than the editor's
     *                        3 s because the dashboard's own reads are heavier: all active leases at
     *                        once, 1.6 to 2.4 s for 10,000 of them on a loaded machine (docs/benchmarks.md)
     */
    public record Settings(Duration tick, Duration refreshInterval, Duration fullReloadInterval, Duration statsInterval,
                           Duration idleAfter, Duration offlineAfter, int eventOverlap, Duration noticeLifetime,
                           Duration unansweredAfter) {

        public static final Duration UNANSWERED_AFTER = Duration.ofSeconds(5);

        public Settings(Duration tick, Duration refreshInterval, Duration fullReloadInterval, Duration statsInterval,
                        Duration idleAfter, Duration offlineAfter, int eventOverlap, Duration noticeLifetime) {
            this(tick, refreshInterval, fullReloadInterval, statsInterval, idleAfter, offlineAfter, eventOverlap, noticeLifetime,
                    UNANSWERED_AFTER);
        }

        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(30),
                    Duration.ofMinutes(3), Duration.ofMinutes(30), 500, Duration.ofSeconds(8), UNANSWERED_AFTER);
        }
    }

    private record People(List<Desk> desks, List<Editor> editors) {
    }

    private final DashboardContext context;
    private final HoldersViewModel holders;
    private final LeaseActionsViewModel leaseActions;
    private final QueueViewModel queue;
    private final QueueActionsViewModel queueActions;
    private final StageBoardViewModel stages;
    private final StageSetupViewModel stageSetup;
    private final DeadlinesViewModel deadlines;
    private final DeadlineActionsViewModel deadlineActions;
    private final HealthViewModel health;
    private final AuditViewModel audit;
    private final QuarantineViewModel quarantine;
    private final RelayViewModel relay;
    private final ImportViewModel imports;
    private final Timers timers = new Timers();
    private boolean readingPeople;
    private long lastPeopleNanos;
    private boolean readingPresence;
    private long lastPresenceNanos;

    public DashboardViewModel(ReviewSession services, TaskExecutor tasks, Ticker ticker, Editor supervisor,
                              Settings settings, ZoneId zone) {
        context = new DashboardContext(services, tasks, ticker, supervisor, settings, zone);
        holders = new HoldersViewModel(context);
        leaseActions = new LeaseActionsViewModel(context, holders);
        queue = new QueueViewModel(context);
        queueActions = new QueueActionsViewModel(context, queue, holders::refreshSoon);
        stages = new StageBoardViewModel(context);
        stageSetup = new StageSetupViewModel(context, stages);
        deadlines = new DeadlinesViewModel(context);
        deadlineActions = new DeadlineActionsViewModel(deadlines, holders::refreshSoon);
        health = new HealthViewModel(context);
        audit = new AuditViewModel(context);
        quarantine = new QuarantineViewModel(context, health::refresh);
        relay = new RelayViewModel(context);
        imports = new ImportViewModel(services, context.longWork, () -> {
            quarantine.refresh();
            health.refresh();
        }, n -> context.post(Notice.of(n.kind(), n.text(), ticker.nanoTime())));
    }

    /** Loads everything once and starts the live refresh. */
    public void start() {
        timers.add(context.ticker.every(context.settings.tick(), this::tick));
        readPeople();
        readPresence();
        holders.reloadAll();
        health.refresh();
        audit.search();
        quarantine.refresh();
        relay.refresh();
    }

    /**
     * Reads the desks and the people again. Who works on which desk changes outside the dashboard
     * (an admin's {@code editors set-desks}) and writes no event, so they are read on their own,
     * as often as the leases; only a change reaches the tabs.
     */
    private void readPeople() {
        if (readingPeople) {
            return;
        }
        readingPeople = true;
        lastPeopleNanos = context.ticker.nanoTime();
        ReviewSession services = context.services;
        context.tasks.run("load desks and editors", () -> new People(services.newsroom().desks(), services.newsroom().editors()),
                people -> {
                    readingPeople = false;
                    if (context.knowDesksAndPeople(people.desks(), people.editors())) {
                        leaseActions.peopleKnown();
                        holders.desksKnown();
                        queue.desksKnown();
                        stages.desksKnown();
                        deadlines.desksKnown();
                        deadlineActions.peopleKnown();
                        queueActions.peopleKnown();
                    }
                }, failure -> {
                    readingPeople = false;
                    context.failed(failure, holders.errorMessage());
                });
    }

    /**
     * Reads who is signed in, for the person pickers, as often as the dashboard's statistics: a
     * presence is "within 3 minutes", so a half-minute-old read is aged locally in between (see
     * {@link FloorStanding}). What each holds follows the live leases instead.
     */
    private void readPresence() {
        if (readingPresence) {
            return;
        }
        readingPresence = true;
        lastPresenceNanos = context.ticker.nanoTime();
        ReviewSession services = context.services;
        context.tasks.run("read who is signed in", () -> services.statistics().editorLoad(), loads -> {
            readingPresence = false;
            context.floor.seen(loads, context.ticker.nanoTime());
            relabelPickers();
        }, failure -> {
            readingPresence = false;
            context.failed(failure, holders.errorMessage());
        });
    }

    /** The person pickers say again who is signed in and how much each holds (nothing is redrawn unless a word changed). */
    private void relabelPickers() {
        leaseActions.peopleKnown();
        deadlineActions.peopleKnown();
        queueActions.peopleKnown();
    }

    /**
     * Every tick: whether the database still answers, countdowns, leases that ran out, refreshes
     * when due, old notices leave.
     */
    void tick() {
        context.watchAnswers();
        long now = context.ticker.nanoTime();
        if (now - lastPeopleNanos >= context.settings.refreshInterval().toNanos()) {
            readPeople();
        }
        if (now - lastPresenceNanos >= context.settings.statsInterval().toNanos()) {
            readPresence();
        }
        holders.tick(now);
        relabelPickers();
        queue.tick(now);
        stages.tick(now);
        deadlines.tick(now);
        health.tick(now);
        relay.tick(now);
        context.expireNotices(now);
    }

    /** Reads every tab again now (the toolbar's reload button). */
    public void reloadEverything() {
        readPeople();
        readPresence();
        holders.reloadAll();
        queue.refresh();
        stages.refresh();
        deadlines.refresh();
        health.refresh();
        audit.search();
        quarantine.refresh();
        relay.refresh();
    }

    /** A tab was opened: its numbers are read again. */
    public void opened(DashboardTab tab) {
        relay.shown(tab == DashboardTab.RELAY);
        queue.shown(tab == DashboardTab.QUEUE);
        stages.shown(tab == DashboardTab.STAGES);
        deadlines.shown(tab == DashboardTab.DEADLINES);
        switch (tab) {
            case QUEUE -> queue.refresh();
            case STAGES -> stages.refresh();
            case DEADLINES -> deadlines.refresh();
            case HEALTH, EDITORS -> health.refresh();
            case AUDIT -> audit.search();
            case QUARANTINE -> quarantine.refresh();
            case RELAY -> relay.refresh();
            default -> { }
        }
    }

    // --- export ---------------------------------------------------------------------------------------

    /** The table the tab shows now, as text. For the holders, the rows as filtered and sorted. */
    public TableSnapshot snapshot(DashboardTab tab) {
        return switch (tab) {
            case HOLDERS -> holders.snapshot();
            case QUEUE -> queue.snapshot();
            case STAGES -> stages.snapshot();
            case DEADLINES -> deadlines.snapshot();
            case HEALTH -> health.deskSnapshot();
            case EDITORS -> health.editorSnapshot();
            case AUDIT -> audit.snapshot();
            case QUARANTINE -> quarantine.snapshot();
            case RELAY -> relay.snapshot();
        };
    }

    /** Writes the tab's table to {@code file} off the FX thread. */
    public void export(DashboardTab tab, Path file) {
        TableSnapshot table = snapshot(tab);
        context.longWork.run("export csv", () -> {
            CsvExport.write(table, file);
            return table.rows().size();
        }, n -> context.post(Notice.Kind.SUCCESS, Messages.text("dashboard.export.done", n, file.getFileName().toString())),
                failure -> context.post(Notice.Kind.ERROR,
                        Messages.text("dashboard.export.failed", file.getFileName().toString(), failure.getMessage())));
    }

    @Override
    public void close() {
        timers.close();
    }

    // --- the tabs and what they share ---------------------------------------------------------------

    public HoldersViewModel holders() {
        return holders;
    }

    public LeaseActionsViewModel leaseActions() {
        return leaseActions;
    }

    /** One desk's queue and what the supervisor does with it. */
    public QueueViewModel queue() {
        return queue;
    }

    public QueueActionsViewModel queueActions() {
        return queueActions;
    }

    /** A desk's review chain as a board, and moving an article to another stage. */
    public StageBoardViewModel stages() {
        return stages;
    }

    /** A desk's deadlines and the forecast of misses (docs/deadlines.md). */
    public DeadlinesViewModel deadlines() {
        return deadlines;
    }

    public DeadlineActionsViewModel deadlineActions() {
        return deadlineActions;
    }

    /** An admin's setup of a desk's chain. */
    public StageSetupViewModel stageSetup() {
        return stageSetup;
    }

    public HealthViewModel health() {
        return health;
    }

    public AuditViewModel audit() {
        return audit;
    }

    public QuarantineViewModel quarantine() {
        return quarantine;
    }

    /** The webhook relay's deliveries and the retry of failed ones. */
    public RelayViewModel relay() {
        return relay;
    }

    /** Imports from the dashboard, with progress. */
    public ImportViewModel imports() {
        return imports;
    }

    public Editor supervisor() {
        return context.supervisor;
    }

    public ObservableList<Notice> notices() {
        return context.notices();
    }

    public void dismiss(Notice notice) {
        context.notices().remove(notice);
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return context.offlineProperty();
    }

    public ReadOnlyStringProperty bannerProperty() {
        return context.bannerProperty();
    }
}
