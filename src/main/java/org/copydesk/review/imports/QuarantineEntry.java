package org.copydesk.review.imports;

/** A bad row on its way to the import quarantine. */
record QuarantineEntry(long line, String rawText, String reason) {
}
