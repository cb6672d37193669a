package org.copydesk.review.imports;

/** The file shapes the importer reads; see {@code docs/import-format.md}. */
public enum ImportFormat {
    /** One top-level JSON array of objects. */
    JSON_ARRAY("JSON array"),
    /** One JSON object per physical line (NDJSON / JSON Lines). */
    JSON_LINES("JSON lines"),
    /** Comma-, semicolon- or tab-separated values with a header row. */
    CSV("CSV");

    private final String displayName;

    ImportFormat(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }
}
