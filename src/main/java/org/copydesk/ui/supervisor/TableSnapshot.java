package org.copydesk.ui.supervisor;

import java.util.List;

/** A table as shown at one moment: headers and text cells, ready to be written out. */
public record TableSnapshot(List<String> headers, List<List<String>> rows) {

    public TableSnapshot {
        headers = List.copyOf(headers);
        rows = rows.stream().map(List::copyOf).toList();
    }
}
