package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.Desk;
import org.copydesk.review.DeskQueue;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The "Queue" tab: one desk's queue, or every desk's ("All desks"), as claims take it, what is scheduled, what the supervisor holds
 * and what is with the writers (see {@link DeskQueue}). Read when the tab or another desk is
 * chosen, after each of the supervisor's acts, and every refresh interval while the tab is shown
 * and the pointer is not on the rows (so no row moves under it). The search (title, external id,
 * or the person who holds an article or is kept from it) is done by the database, so the first
 * {@link DeskQueue#WAITING_SHOWN} matches are found however long the queue.
 */
public final class QueueViewModel {

    private final DashboardContext context;
    private final Desk allDesks = new Desk(DeskQueue.ALL_DESKS, Messages.text("dashboard.queue.allDesks"), Duration.ZERO,
            Duration.ZERO, 0, Duration.ZERO);
    private final DeskChoice choice = new DeskChoice(allDesks);
    private final StringProperty search = new SimpleStringProperty("");
    /** What the next read looks for: set on the FX thread, read by the read off it. */
    private volatile Query asked = new Query("", List.of());
    /** What the last read looked for. */
    private volatile Query answered;
    private final ObjectProperty<Desk> desk = choice.desk();
    private final ObservableList<Item> items = FXCollections.observableArrayList();
    private final ObjectProperty<Item> selected = new SimpleObjectProperty<>();
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty loadError = new SimpleStringProperty("");
    private final BooleanProperty pointerOver = new SimpleBooleanProperty();
    /** When the queue shown was read, by the server's clock. */
    private LocalDateTime readAt;
    private final DeskTabReads<DeskQueue.Snapshot> reads;

    QueueViewModel(DashboardContext context) {
        this.context = context;
        this.reads = new DeskTabReads<>(context, "load the desk's queue", this::read, DeskQueue.Snapshot::desk, loadError, pointerOver);
        desk.addListener((o, a, d) -> {
            selected.set(null);
            items.clear();
            refresh();
        });
        search.addListener((o, a, text) -> refresh());
    }

    /** The search's text, and the people whose name or id contains it. */
    private record Query(String text, List<String> people) {
    }

    private DeskQueue.Snapshot read(String deskId) {
        Query q = asked;
        answered = q;
        return context.services.deskQueue().find(deskId.isEmpty() ? null : deskId, q.text(), q.people());
    }

    private Query query() {
        String text = search.get() == null ? "" : search.get().strip();
        if (text.isEmpty()) {
            return new Query("", List.of());
        }
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        return new Query(text, context.people().stream().filter(e -> e.displayName().toLowerCase(java.util.Locale.ROOT).contains(lower)
                || e.id().toLowerCase(java.util.Locale.ROOT).contains(lower)).map(org.copydesk.review.Editor::id).toList());
    }

    /** The desks are known (or changed): the supervisor's own first, then the others. */
    void desksKnown() {
        choice.desksKnown(context);
    }

    /** Reads the chosen desk's queue again. */
    public void refresh() {
        asked = query();
        reads.refresh(desk.get(), desk::get, snapshot -> {
            long keep = selected.get() == null ? -1 : selected.get().id();
            readAt = snapshot.serverNow();
            items.setAll(snapshot.items());
            selected.set(items.stream().filter(i -> i.id() == keep).findFirst().orElse(null));
            summary.set(describe(snapshot));
            if (!asked.equals(answered)) {
                refresh(); // the search changed while this was read
            }
        });
    }

    /** "12 waiting, 2 scheduled, 1 held, 3 with writers", and how many waiting are not listed. */
    private static String describe(DeskQueue.Snapshot s) {
        String counts = Messages.text("dashboard.queue.summary", s.waitingTotal(), s.in(DeskQueue.Place.SCHEDULED).size(),
                s.in(DeskQueue.Place.HELD).size(), s.in(DeskQueue.Place.WITH_WRITERS).size());
        int listed = s.in(DeskQueue.Place.WAITING).size();
        return listed < s.waitingTotal() ? Messages.text("dashboard.queue.summaryFirst", counts, listed) : counts;
    }

    /** Reloads when due, while the tab is shown and the pointer is not on the rows. */
    void tick(long now) {
        if (reads.due(now)) {
            refresh();
        }
    }

    void shown(boolean isShown) {
        reads.shown(isShown);
    }

    // --- how a row reads ---------------------------------------------------------------------------

    /** "1 · next", "Scheduled until 14:00", "Held by Sue Lindqvist", "With the writer". */
    public String placeOf(Item i) {
        return switch (i.place()) {
            case WAITING -> i.position() == 0 ? Messages.text("dashboard.queue.place.found")
                    : i.position() == 1 ? Messages.text("dashboard.queue.place.next")
                    : Messages.text("dashboard.queue.place.waiting", i.position());
            case SCHEDULED -> Messages.text("dashboard.queue.place.scheduled", Formats.localDayClock(i.availableAt(), context.zone));
            case HELD -> Messages.text("dashboard.queue.place.held", context.personName(i.heldBy()));
            case WITH_WRITERS -> Messages.text("dashboard.queue.place.withWriters");
        };
    }

    /** What else the supervisor should know: came back from the writer, kept from someone, waiting how long. */
    public String notesOf(Item i) {
        List<String> notes = new java.util.ArrayList<>();
        if (i.cameBack()) {
            notes.add(Messages.text("dashboard.queue.note.cameBack", i.attempts(), i.revision()));
        }
        if (i.keptFrom() != null) {
            notes.add(Messages.text("dashboard.queue.note.keptFrom", context.personName(i.keptFrom())));
        }
        if (i.place() == DeskQueue.Place.WAITING && readAt != null) {
            notes.add(Messages.text("dashboard.queue.note.waitingFor", Formats.roughly(Duration.between(i.availableAt(), readAt))));
        }
        return String.join(" \u00b7 ", notes);
    }

    TableSnapshot snapshot() {
        return new TableSnapshot(List.of("position", "article", "title", "priority", "place", "available_at_utc", "sent_back",
                "kept_from", "held_by"), items.stream().map(i -> List.of(Integer.toString(i.position()), Long.toString(i.id()),
                i.title(), Integer.toString(i.priority()), i.place().name().toLowerCase(java.util.Locale.ROOT),
                String.valueOf(i.availableAt()), Integer.toString(i.attempts()), i.keptFrom() == null ? "" : i.keptFrom(),
                i.heldBy() == null ? "" : i.heldBy())).toList());
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public ObservableList<Desk> desks() {
        return choice.desks();
    }

    public ObjectProperty<Desk> deskProperty() {
        return desk;
    }

    /** Whether every desk is shown (the rows then say their desk). */
    public boolean allDesksShown() {
        return desk.get() == allDesks;
    }

    public String deskName(String id) {
        return context.deskName(id);
    }

    /** Title, external id, or the name of who holds an article or is kept from it. */
    public StringProperty searchProperty() {
        return search;
    }

    public ObservableList<Item> items() {
        return items;
    }

    public ObjectProperty<Item> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    /** Why the queue could not be read (a lost connection shows in the banner instead). */
    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError;
    }

    /** Set by the view while the pointer is on the rows: they hold still. */
    public BooleanProperty pointerOverProperty() {
        return pointerOver;
    }
}
