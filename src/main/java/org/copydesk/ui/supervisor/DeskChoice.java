package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.Desk;

/**
 * The desk a tab shows one at a time (Queue, Stages): the desks to choose from, the supervisor's
 * own first, then the others; the choice stays while the desk does, and falls to the first desk
 * when it goes. A tab that can show every desk at once (the Queue) gives a first choice that
 * stands for all of them ({@link #DeskChoice(Desk)}); it is kept like a desk.
 */
final class DeskChoice {

    /** A choice listed before the desks and always there (e.g. "All desks"), or null. */
    private final Desk first;

    DeskChoice() {
        this(null);
    }

    DeskChoice(Desk first) {
        this.first = first;
    }

    private final ObservableList<Desk> desks = FXCollections.observableArrayList();
    private final ObjectProperty<Desk> desk = new SimpleObjectProperty<>();

    /** The desks are known (or changed). */
    void desksKnown(DashboardContext context) {
        List<Desk> all = context.desks();
        List<String> own = context.supervisor.desks();
        List<Desk> ordered = new ArrayList<>();
        if (first != null) {
            ordered.add(first);
        }
        all.stream().filter(d -> own.contains(d.id())).forEach(ordered::add);
        all.stream().filter(d -> !own.contains(d.id())).forEach(ordered::add);
        if (!ordered.equals(desks)) {
            desks.setAll(ordered);
        }
        Desk chosen = desk.get();
        Desk again = chosen == null ? null : ordered.stream().filter(d -> d.id().equals(chosen.id())).findFirst().orElse(null);
        if (again == null && ordered.size() > (first == null ? 0 : 1)) {
            desk.set(ordered.get(first == null ? 0 : 1)); // the supervisor's own desk, not "all", to start with
        }
    }

    ObservableList<Desk> desks() {
        return desks;
    }

    ObjectProperty<Desk> desk() {
        return desk;
    }
}
