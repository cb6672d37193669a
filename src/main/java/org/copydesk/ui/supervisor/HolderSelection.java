package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The leases the supervisor selected in the holders table: a set of article numbers, never row
 * positions, so the selection stays on its leases when rows move, change or hold still. The first
 * one leads (the side panel describes it); the lease actions act on all of them.
 */
final class HolderSelection {

    private final Supplier<Function<Long, HolderRow>> rowsNow;
    private final Set<Long> ids = new LinkedHashSet<>();
    private final ObjectProperty<HolderRow> lead = new SimpleObjectProperty<>();
    private final ObservableList<HolderRow> rows = FXCollections.observableArrayList();
    private final ObservableList<HolderRow> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private boolean leading;

    /** @param rowsNow where a lease's row is found now (see {@link StillRows#rowsNow()}) */
    HolderSelection(Supplier<Function<Long, HolderRow>> rowsNow) {
        this.rowsNow = rowsNow;
        lead.addListener((o, a, row) -> {
            if (!leading) {
                select(row == null ? List.of() : List.of(row));
            }
        });
    }

    /** Selects these leases (the table's multiple selection); the first one leads the side panel. */
    void select(Collection<HolderRow> chosen) {
        ids.clear();
        chosen.forEach(r -> ids.add(r.id()));
        show();
    }

    /**
     * A row the filter hides, or a lease that ended, cannot stay selected: the side panel and its
     * buttons would act on a lease the supervisor no longer sees.
     */
    void keepOnly(List<HolderRow> visible) {
        Set<Long> visibleIds = new HashSet<>();
        visible.forEach(r -> visibleIds.add(r.id()));
        ids.removeIf(id -> !visibleIds.contains(id));
    }

    boolean isEmpty() {
        return ids.isEmpty();
    }

    /** The selected leases as their rows are shown now (a held row that ended stays until it is shown no more). */
    void show() {
        Function<Long, HolderRow> rowOf = rowsNow.get();
        List<HolderRow> now = new ArrayList<>(ids.size());
        for (Long id : ids) {
            HolderRow row = rowOf.apply(id);
            if (row != null) {
                now.add(row);
            }
        }
        if (!now.equals(rows)) {
            rows.setAll(now);
        }
        HolderRow first = now.isEmpty() ? null : now.get(0);
        if (lead.get() != first) {
            leading = true;
            try {
                lead.set(first);
            } finally {
                leading = false;
            }
        }
    }

    /** The lease that leads the selection; setting it selects it alone. */
    ObjectProperty<HolderRow> leadProperty() {
        return lead;
    }

    /** Every selected lease, as its row is shown now. */
    ObservableList<HolderRow> rows() {
        return rowsReadOnly;
    }
}
