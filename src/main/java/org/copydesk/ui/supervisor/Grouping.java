package org.copydesk.ui.supervisor;

import java.util.function.Function;

/** How "Who holds what" is grouped: not at all, by holder or by desk. */
public enum Grouping {
    NONE("No grouping", r -> ""), EDITOR("By editor", HolderRow::editorId), DESK("By desk", HolderRow::desk);

    private final String label;
    private final Function<HolderRow, String> key;

    Grouping(String label, Function<HolderRow, String> key) {
        this.label = label;
        this.key = key;
    }

    public String label() {
        return label;
    }

    String keyOf(HolderRow row) {
        return key.apply(row);
    }

    @Override
    public String toString() {
        return label;
    }
}
