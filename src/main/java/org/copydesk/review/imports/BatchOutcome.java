package org.copydesk.review.imports;

import java.util.List;
import java.util.Map;

/**
 * What one committed batch did.
 *
 * @param insertedIds article ids by external id, for the rows this batch inserted
 * @param alreadyPresent rows whose article was there with the same content
 * @param revisions      rows whose article was there with a different content (a new revision, or already decided)
 * @param quarantined every bad row written to the quarantine in this batch, including those found while writing
 * @param lateLines   the lines of new articles whose due time had passed when they were imported
 */
record BatchOutcome(Map<String, Long> insertedIds, int alreadyPresent, List<RevisionRow> revisions,
                    List<QuarantineEntry> quarantined, List<Long> lateLines) {

    int imported() {
        return insertedIds.size();
    }
}
