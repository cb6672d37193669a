package org.copydesk.ui.supervisor;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;
import org.copydesk.ui.common.UnansweredWork;

/**
 * What the dashboard's tabs share: the services and the executor, who is at the screen, the
 * desks' names and the people, the notices and whether the database can be reached. Each tab's
 * view model gets this one object, as the pages of AtlantaFX's file manager share one model.
 *
 * <p>A failure that says the database is out of reach goes to the banner, whichever tab met it;
 * any other failure is shown by the tab next to what failed (see {@link #failed}). So does a
 * database that stops answering: a frozen server fails nothing for a long time, so the banner
 * also shows while a call has waited too long for its answer (see {@link #watchAnswers}).
 */
final class DashboardContext {

    /** Notices that stay until dismissed elsewhere still leave here, after this many ordinary lifetimes. */
    private static final int STICKY_LIFETIMES = 8;
    private static final int MAX_NOTICES = 4;

    final ReviewSession services;
    /** The calls that read or act in one go: one left unanswered too long means the database is not answering. */
    final UnansweredWork tasks;
    /**
     * Work that may rightly take long, not watched for its answer: a batch of one call per lease,
     * an import, a file written. A frozen server still shows, through the refreshes beside it.
     */
    final TaskExecutor longWork;
    final Ticker ticker;
    final Editor supervisor;
    final DashboardViewModel.Settings settings;
    final ZoneId zone;
    /** Who is signed in and how much each holds, for the person pickers. */
    final FloorStanding floor = new FloorStanding();

    private final Map<String, String> deskNames = new HashMap<>();
    private final List<Desk> desks = new ArrayList<>();
    private final ObservableList<Editor> people = FXCollections.observableArrayList();
    private final ObservableList<Editor> peopleReadOnly = FXCollections.unmodifiableObservableList(people);
    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private final BooleanProperty offline = new SimpleBooleanProperty();
    private final StringProperty banner = new SimpleStringProperty("");
    /** Offline because a call waits too long for its answer, not because one failed. */
    private boolean notAnswering;

    DashboardContext(ReviewSession services, TaskExecutor tasks, Ticker ticker, Editor supervisor,
                     DashboardViewModel.Settings settings, ZoneId zone) {
        this.services = services;
        this.tasks = new UnansweredWork(tasks, ticker, settings.unansweredAfter());
        this.longWork = tasks;
        this.ticker = ticker;
        this.supervisor = supervisor;
        this.settings = settings;
        this.zone = zone;
    }

    /**
     * The desks and people as just read; false when nothing changed since the last read, so the
     * tabs that follow them (the reassign list, the audit's people, desk names) redo nothing.
     */
    boolean knowDesksAndPeople(List<Desk> latestDesks, List<Editor> editors) {
        if (latestDesks.equals(desks) && sameTeam(editors, people)) {
            return false;
        }
        desks.clear();
        desks.addAll(latestDesks);
        deskNames.clear();
        latestDesks.forEach(d -> deskNames.put(d.id(), d.name()));
        people.setAll(editors);
        return true;
    }

    /** The same people with the same roles, capacities and desks (when they were last seen aside: that changes every minute). */
    private static boolean sameTeam(List<Editor> a, List<Editor> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Editor x = a.get(i);
            Editor y = b.get(i);
            if (!x.id().equals(y.id()) || !x.displayName().equals(y.displayName()) || x.role() != y.role()
                    || x.capacity() != y.capacity() || !x.desks().equals(y.desks())) {
                return false;
            }
        }
        return true;
    }

    String deskName(String id) {
        return deskNames.getOrDefault(id, id);
    }

    List<Desk> desks() {
        return List.copyOf(desks);
    }

    /** Everyone, by name, as last read: kept current while the dashboard is open (see DashboardViewModel). */
    ObservableList<Editor> people() {
        return peopleReadOnly;
    }

    /** Whether {@code e} is signed in now and how much they hold. */
    FloorStanding.Standing standing(Editor e) {
        return floor.of(e, ticker.nanoTime(), settings.idleAfter(), settings.offlineAfter());
    }

    /** Who may be given articles of {@code desks}, signed in with room first (see {@link Recipients}). */
    List<Editor> recipients(java.util.Set<String> desks, String except) {
        return Recipients.of(people, desks, except, this::standing);
    }

    /** How a person reads in a "give to" list. */
    String recipientLabel(Editor e, java.util.Set<String> desks) {
        return Recipients.label(e, desks, this::deskName, standing(e), floor.known());
    }

    /** A person's name from their id; ids that are no person (the release service, an admin account) as they are. */
    String personName(String id) {
        if (id == null) {
            return "";
        }
        for (Editor e : people) {
            if (e.id().equals(id)) {
                return e.displayName();
            }
        }
        return id;
    }

    // --- connection state ---------------------------------------------------------------------------

    /**
     * Shows a failure: a lost connection in the banner (true is returned), anything else in
     * {@code nextToIt}, the place on screen beside the control or table that failed.
     */
    boolean failed(Throwable failure, StringProperty nextToIt) {
        if (ConnectionTrouble.isConnectionLost(failure)) {
            notAnswering = false; // a call that hung has now failed: the server is gone, not slow
            offline.set(true);
            banner.set(Messages.text("dashboard.offline.banner"));
            return true;
        }
        nextToIt.set(ConnectionTrouble.describe(failure));
        return false;
    }

    /**
     * A call went through: if the dashboard was offline, it says it is back, unless another call
     * still waits too long for its answer (the banner would come back on the next tick).
     */
    void reached() {
        if (offline.get() && !tasks.waitingTooLong()) {
            back();
        }
    }

    /**
     * On every tick: a call unanswered too long puts the "not answering" banner up, as a lost
     * connection does; it goes as soon as no call waits that long any more (the answers came,
     * or failures, which say the rest).
     */
    void watchAnswers() {
        boolean waitingTooLong = tasks.waitingTooLong();
        if (waitingTooLong && !offline.get()) {
            notAnswering = true;
            offline.set(true);
            banner.set(Messages.text("dashboard.notAnswering.banner"));
        } else if (!waitingTooLong && notAnswering) {
            back();
        }
    }

    private void back() {
        notAnswering = false;
        offline.set(false);
        banner.set("");
        post(Notice.Kind.SUCCESS, Messages.text("dashboard.backOnline"));
    }

    ReadOnlyBooleanProperty offlineProperty() {
        return offline;
    }

    ReadOnlyStringProperty bannerProperty() {
        return banner;
    }

    // --- notices ------------------------------------------------------------------------------------

    void post(Notice.Kind kind, String text) {
        post(Notice.of(kind, text, ticker.nanoTime()));
    }

    void post(Notice notice) {
        notices.add(0, notice);
        while (notices.size() > MAX_NOTICES) {
            notices.remove(notices.size() - 1);
        }
    }

    /** Old notices leave: the ordinary ones after their lifetime, warnings and errors later. */
    void expireNotices(long nowNanos) {
        long lifetime = settings.noticeLifetime().toNanos();
        notices.removeIf(n -> nowNanos - n.postedAtNanos() > (n.sticky() ? STICKY_LIFETIMES * lifetime : lifetime));
    }

    ObservableList<Notice> notices() {
        return notices;
    }
}
