package org.copydesk.ui.supervisor;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.ui.supervisor.HoldersTable.GroupSummary;

/**
 * How the supervisor chose to see the holders table: the search, the grouping by holder or desk
 * with the side list of groups and the one group shown, and the sort inside the groups. Each choice
 * is handed to the {@link HoldersTable}, which filters and orders; then the rows are shown again.
 */
final class TableChoices {

    private final HoldersTable table;
    private final Runnable showRows;
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<Grouping> grouping = new SimpleObjectProperty<>(Grouping.NONE);
    private final ObjectProperty<GroupSummary> groupFilter = new SimpleObjectProperty<>();
    private final ObservableList<GroupSummary> groups = FXCollections.observableArrayList();
    private final ObjectProperty<HolderSort> sortKey = new SimpleObjectProperty<>(HolderSort.DEFAULT);
    private final BooleanProperty sortAscending = new SimpleBooleanProperty(HolderSort.DEFAULT_ASCENDING);
    private final StringProperty sortDescription = new SimpleStringProperty(HolderSort.DEFAULT.describe(HolderSort.DEFAULT_ASCENDING));

    /** @param showRows shows the rows again after a choice changed what passes or their order */
    TableChoices(HoldersTable table, Runnable showRows) {
        this.table = table;
        this.showRows = showRows;
        search.addListener((o, a, text) -> {
            table.search(text);
            showRows.run();
        });
        groupFilter.addListener((o, a, g) -> {
            if (g != table.groupFilter()) {
                table.showGroup(g);
                showRows.run();
            }
        });
        grouping.addListener((o, a, g) -> {
            table.groupBy(g);
            groupFilter.set(null);
            updateGroups();
            showRows.run();
        });
    }

    /** Desks sort and group by name, known only once loaded. */
    void desksKnown() {
        table.reorder();
        updateGroups();
        showRows.run();
    }

    /** The side list after the leases changed: the chosen group stays chosen, with its new count. */
    void updateGroups() {
        groups.setAll(table.groups());
        if (groupFilter.get() != table.groupFilter()) {
            groupFilter.set(table.groupFilter()); // the same group with its new count, or none
        }
    }

    /**
     * Sorts by {@code key} inside its groups (a column header click). Ties go by claim time.
     * Sorting again by the same key and direction does nothing, so a table that asks after every
     * refresh costs nothing.
     */
    void sortBy(HolderSort key, boolean ascending) {
        if (!table.sortBy(key, ascending)) {
            return;
        }
        sortKey.set(key);
        sortAscending.set(ascending);
        sortDescription.set(key.describe(ascending));
        showRows.run();
    }

    StringProperty searchProperty() {
        return search;
    }

    ObjectProperty<Grouping> groupingProperty() {
        return grouping;
    }

    ObservableList<GroupSummary> groups() {
        return groups;
    }

    ObjectProperty<GroupSummary> groupFilterProperty() {
        return groupFilter;
    }

    ReadOnlyObjectProperty<HolderSort> sortKeyProperty() {
        return sortKey;
    }

    ReadOnlyBooleanProperty sortAscendingProperty() {
        return sortAscending;
    }

    /** "By time left, soonest to run out first". */
    ReadOnlyStringProperty sortDescriptionProperty() {
        return sortDescription;
    }
}
