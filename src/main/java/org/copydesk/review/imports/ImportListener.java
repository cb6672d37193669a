package org.copydesk.review.imports;

/**
 * Hears how an import is going and may stop it. Both methods are called on the importing thread:
 * a UI hands the progress over to its own thread. An exception thrown by {@link #progress} is
 * logged and does not stop the import.
 */
public interface ImportListener {

    /** Listens to nothing and never cancels. */
    ImportListener NONE = new ImportListener() {
    };

    /** Called at most every {@link ImportSettings#progressInterval()} while reading and after every batch written. */
    default void progress(ImportProgress progress) {
    }

    /**
     * Polled as often as progress is reported. Returning true stops the import after the batch in
     * hand is written: every row read so far is accounted for, the rest of the file is not read.
     * Interrupting the importing thread has the same effect.
     */
    default boolean cancelRequested() {
        return false;
    }
}
