package org.copydesk.ui.supervisor;

import java.util.function.Function;
import org.copydesk.ui.common.Messages;

/** How "Who holds what" is grouped: not at all, by holder or by desk. */
public enum Grouping {
    NONE("dashboard.holders.grouping.none", r -> ""), EDITOR("dashboard.holders.grouping.editor", HolderRow::editorId),
    DESK("dashboard.holders.grouping.desk", HolderRow::desk);

    private final String label;
    private final Function<HolderRow, String> key;

    Grouping(String label, Function<HolderRow, String> key) {
        this.label = label;
        this.key = key;
    }

    public String label() {
        return Messages.text(label);
    }

    String keyOf(HolderRow row) {
        return key.apply(row);
    }

    @Override
    public String toString() {
        return label();
    }
}
