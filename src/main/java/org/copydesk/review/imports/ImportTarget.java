package org.copydesk.review.imports;

/**
 * Where rows of one import come from and who imports them, as written to the quarantine and the
 * history; {@code reopen}: a new revision of a decided article reopens it.
 */
record ImportTarget(String importId, String sourceName, String actor, boolean reopen) {
}
