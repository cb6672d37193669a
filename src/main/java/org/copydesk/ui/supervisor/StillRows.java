package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The holders table's rows on screen, which do not move under the supervisor's hand: while the
 * pointer is over the table or its actions, or the keyboard works on a selection in the table,
 * updates from the server change rows in place but do not add, remove or reorder them;
 * {@link #heldTextProperty()} says how many changes wait, and they are shown on request or when
 * the pointer leaves. The selection follows the rows shown.
 */
final class StillRows {

    private final HoldersTable table;
    private final HolderSelection selection;
    private final Runnable showLatestWhenFree;
    private final ObservableList<HolderRow> shown = FXCollections.observableArrayList();
    private final ObservableList<HolderRow> shownReadOnly = FXCollections.unmodifiableObservableList(shown);
    private final BooleanProperty pointerOver = new SimpleBooleanProperty();
    private final BooleanProperty keyboardOnRows = new SimpleBooleanProperty();
    private final StringProperty heldText = new SimpleStringProperty("");
    private HeldChanges held = HeldChanges.NONE;
    private int matching;

    /** @param showLatestWhenFree shows what waited, once the supervisor lets go of the rows */
    StillRows(HoldersTable table, HolderSelection selection, Runnable showLatestWhenFree) {
        this.table = table;
        this.selection = selection;
        this.showLatestWhenFree = showLatestWhenFree;
        pointerOver.addListener((o, a, over) -> showHeldWhenFree());
        keyboardOnRows.addListener((o, a, focused) -> showHeldWhenFree());
    }

    /** Whether the supervisor is working with the rows: pointing at them, or on them with the keyboard. */
    boolean holding() {
        return pointerOver.get() || (keyboardOnRows.get() && !selection.isEmpty());
    }

    /** Shows the ordered leases that pass the filter, in one change; the selection keeps only what they show. */
    void showLatest() {
        List<HolderRow> visible = table.visible();
        shown.setAll(visible);
        updateHeld(visible);
        selection.keepOnly(visible);
        selection.show();
    }

    /** While held, a change from the server shows only where it changes no row's place. */
    void showInPlace() {
        for (int i = 0; i < shown.size(); i++) {
            HolderRow now = table.get(shown.get(i).id());
            if (now != null && now != shown.get(i)) {
                shown.set(i, now); // the same lease, renewed or extended: its place does not change
            }
        }
        updateHeld(table.visible());
        selection.show();
    }

    private void showHeldWhenFree() {
        if (!holding() && held.any()) {
            showLatestWhenFree.run();
        }
    }

    private void updateHeld(List<HolderRow> latest) {
        matching = latest.size();
        HeldChanges changes = shown.size() == latest.size() && idsOf(shown).equals(idsOf(latest)) ? HeldChanges.NONE
                : HeldChanges.between(idsOf(shown), idsOf(latest));
        held = changes;
        heldText.set(changes.describe());
    }

    private static List<Long> idsOf(List<HolderRow> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        rows.forEach(r -> ids.add(r.id()));
        return ids;
    }

    /**
     * Where a lease's row is found now: while the rows hold still, among them (current where the
     * lease lives on, as last seen where it ended); otherwise in the table.
     */
    Function<Long, HolderRow> rowsNow() {
        if (!holding()) {
            return table::get;
        }
        Map<Long, HolderRow> heldRows = new HashMap<>();
        shown.forEach(r -> heldRows.put(r.id(), r));
        return heldRows::get;
    }

    /** How many active leases pass the search and group now, whether or not the rows show them yet. */
    int matching() {
        return matching;
    }

    /** The rows as shown: filtered, grouped and sorted. */
    ObservableList<HolderRow> rows() {
        return shownReadOnly;
    }

    BooleanProperty pointerOverProperty() {
        return pointerOver;
    }

    BooleanProperty keyboardOnRowsProperty() {
        return keyboardOnRows;
    }

    /** "3 changes wait while you work here: 1 new, 2 moved."; empty when the table shows the latest. */
    ReadOnlyStringProperty heldTextProperty() {
        return heldText;
    }
}
