package org.copydesk.ui.supervisor;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.ui.common.Messages;

/**
 * The words that count the holders table: the count line ("3 of 14 active leases · live") and what
 * the empty table says (nobody holds anything, or nothing matches). Both say "loading" until the
 * first read is in.
 *
 * <p>The count is of the leases as they are now, not of the rows on screen: while the rows hold
 * still they may still show a lease that ended, or not yet one that began, and the waiting changes
 * say so beside the count.
 */
final class HoldersCount {

    private final HoldersTable table;
    private final StringProperty summary = new SimpleStringProperty(Messages.text("dashboard.holders.loading"));
    private final StringProperty emptyText = new SimpleStringProperty(Messages.text("dashboard.holders.loading"));

    HoldersCount(HoldersTable table) {
        this.table = table;
    }

    /** @param matching how many active leases pass the search and group now */
    void count(int matching) {
        emptyText.set(table.emptyText());
        summary.set(table.summary(matching));
    }

    ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    /** The text of the empty table: why no row is shown. */
    ReadOnlyStringProperty emptyTextProperty() {
        return emptyText;
    }
}
