package org.copydesk.review.imports;

/**
 * The import could not go on for a reason that is not the content of a row: the file cannot be
 * opened or read, or the database is unreachable. Batches committed before the failure stay, and
 * {@link #report()} counts them; importing the same file again completes the rest without duplicates.
 */
public final class ImportFailedException extends RuntimeException {

    private final transient ImportReport report;

    public ImportFailedException(String message, ImportReport report, Throwable cause) {
        super(message, cause);
        this.report = report;
    }

    /** What was done before the failure. */
    public ImportReport report() {
        return report;
    }
}
