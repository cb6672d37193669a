package org.copydesk.review.imports;

import java.util.Map;

/** A row's fields by lower-case name, or why the row could not be read at all. */
record ParsedRow(Map<String, FieldValue> fields, String problem) {

    static ParsedRow of(Map<String, FieldValue> fields) {
        return new ParsedRow(fields, null);
    }

    static ParsedRow failed(String problem) {
        return new ParsedRow(null, problem);
    }

    boolean ok() {
        return problem == null;
    }
}
