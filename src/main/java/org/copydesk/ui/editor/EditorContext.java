package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Stage;
import org.copydesk.ui.common.ConnectionStatus;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeBoard;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;
import org.copydesk.ui.common.UnansweredWork;

/**
 * What the parts of the editor's view model share: the session and the executor, who is at the
 * screen and the desks they work on today with their names, the articles held ({@link HeldList}),
 * the notices, whether the database can be reached, and when the editor last did something. Each
 * part gets this one object, as the dashboard's tabs share {@code DashboardContext}.
 *
 * <p>A failure goes through {@link #failed}: a lost connection to the banner, anything else to a
 * notice, whichever part met it.
 */
final class EditorContext {

    final ReviewSession session;
    /** Every call to the database goes through here: a call left unanswered too long means the database is not answering. */
    final UnansweredWork tasks;
    final Ticker ticker;
    final Editor editor;
    final EditorViewModel.Settings settings;
    final ZoneId zone;
    final HeldList held = new HeldList();
    final NoticeBoard notices;
    final ConnectionStatus connection;

    /** The desks chosen at sign-in; {@link #desks} are those of them the editor still works on. */
    private final List<String> chosenDesks;
    private List<String> desks;
    private final Map<String, String> deskNames = new HashMap<>();
    /** The review chain of each desk the editor works on (empty: a desk without stages). */
    private Map<String, List<Stage>> chains = Map.of();
    private Consumer<String> desktop = text -> { };
    private long lastActivityNanos;

    EditorContext(ReviewSession session, TaskExecutor tasks, Ticker ticker, Editor editor, List<String> desks,
                  EditorViewModel.Settings settings, ZoneId zone) {
        this.session = session;
        this.tasks = new UnansweredWork(tasks, ticker, settings.unansweredAfter());
        this.ticker = ticker;
        this.editor = editor;
        this.chosenDesks = List.copyOf(desks);
        this.desks = chosenDesks;
        this.settings = settings;
        this.zone = zone;
        this.notices = new NoticeBoard(ticker, settings.noticeLifetime());
        this.connection = new ConnectionStatus(ticker, settings.firstReconnectDelay(), settings.maxReconnectDelay(),
                Messages.text("editor.offline.notesKept"));
        this.lastActivityNanos = ticker.nanoTime();
    }

    /** Shows a failure: a lost connection in the banner (the window goes offline), anything else as an error notice. */
    void failed(Throwable failure) {
        if (ConnectionTrouble.isConnectionLost(failure)) {
            connection.lost();
        } else {
            notices.post(Notice.Kind.ERROR, ConnectionTrouble.describe(failure));
        }
    }

    // --- desks --------------------------------------------------------------------------------------

    /**
     * The newsroom's desks as read now, and the desks this editor works on now (an admin may have
     * changed them since sign-in): the window follows, on the desks chosen at sign-in that are still
     * the editor's. True if names or desks changed.
     */
    boolean knowDesks(List<Desk> all, List<String> editorsDesks) {
        Map<String, String> names = new HashMap<>();
        all.forEach(d -> names.put(d.id(), d.name()));
        List<String> now = chosenDesks.stream().filter(editorsDesks::contains).toList();
        boolean changed = !names.equals(deskNames) || !now.equals(desks);
        deskNames.clear();
        deskNames.putAll(names);
        desks = now;
        return changed;
    }

    /** The desks' review chains as read now; true if they changed. */
    boolean knowChains(Map<String, List<Stage>> now) {
        boolean changed = !now.equals(chains);
        chains = Map.copyOf(now);
        return changed;
    }

    /** The desk's chain, first stage first; empty for a desk without stages (or before the chains are read). */
    List<Stage> chain(String desk) {
        return chains.getOrDefault(desk, List.of());
    }

    /** The desks the editor works on today: those chosen at sign-in that are still theirs. */
    List<String> desks() {
        return desks;
    }

    /** A desk's name ("Sport"); its id until the names are known. */
    String deskName(String id) {
        return deskNames.getOrDefault(id, id);
    }

    // --- the editor at work -------------------------------------------------------------------------

    /** The editor is at work (a key, a click, a decision). */
    void activity() {
        lastActivityNanos = ticker.nanoTime();
    }

    /** True once the editor has done nothing for the idle timeout: their leases are no longer renewed. */
    boolean idle() {
        return untouchedFor(settings.idleTimeout());
    }

    /** True once the editor has done nothing (no key, click or decision) for longer than {@code time}. */
    boolean untouchedFor(Duration time) {
        return ticker.nanoTime() - lastActivityNanos > time.toNanos();
    }

    // --- the desktop --------------------------------------------------------------------------------

    /** Where alerts for the operating system go (the view passes them on only while the window is behind others). */
    void onDesktopAlerts(Consumer<String> alerts) {
        this.desktop = alerts;
    }

    /** News the editor must not miss behind another window: a lease running out, lost, or given to them. */
    void alertDesktop(String text) {
        desktop.accept(text);
    }
}
