package org.copydesk.lease;

import java.util.List;
import java.util.stream.Collectors;

/** The primary key of one leased row; one value per key column, in the table's key order. */
public record RowKey(List<Object> values) {

    public RowKey {
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one value");
        }
    }

    public static RowKey of(Object... values) {
        return new RowKey(List.of(values));
    }

    /** The key as written to the event log: values joined by '|'. */
    public String render() {
        return values.stream().map(String::valueOf).collect(Collectors.joining("|"));
    }

    /** The single value of a one-column key. */
    public Object single() {
        if (values.size() != 1) {
            throw new IllegalStateException("composite key " + render());
        }
        return values.get(0);
    }

    @Override
    public String toString() {
        return render();
    }
}
