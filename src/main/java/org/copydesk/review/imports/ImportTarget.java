package org.copydesk.review.imports;

/** Where rows of one import come from and who imports them, as written to the quarantine and the history. */
record ImportTarget(String importId, String sourceName, String actor) {
}
