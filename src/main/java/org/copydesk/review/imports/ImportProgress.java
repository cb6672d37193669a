package org.copydesk.review.imports;

/**
 * A snapshot of a running import. {@code imported}, {@code alreadyPresent} and {@code quarantined}
 * count rows whose batch is committed; rows read but still in the batch in hand are in none of them yet.
 *
 * @param totalBytes size of the input, or -1 when unknown (a pipe)
 */
public record ImportProgress(String importId, String source, long rowsRead, long imported, long alreadyPresent,
                             long quarantined, long bytesRead, long totalBytes) {

    /** Share of the input read, 0..1, or -1 when the size is unknown. */
    public double fractionRead() {
        if (totalBytes <= 0) {
            return totalBytes == 0 ? 1.0 : -1.0;
        }
        return Math.min(1.0, (double) bytesRead / totalBytes);
    }
}
