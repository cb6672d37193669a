package org.copydesk.review.imports;

/**
 * A point inside a running import where a test can make something happen at a row of its choosing,
 * deterministically: the crash tests stop the whole process at row N, so batches before it are
 * committed and the batch in hand is not, and then check that a restart finishes the file with every
 * row exactly once. Production imports run with {@link #NONE}; only the test-only system property
 * {@value #HALT_AT_ROW} (set on a child JVM by those tests) makes {@link #fromSystemProperties} return
 * anything else.
 */
interface ImportHook {

    /** {@code -Dcopydesk.test.import.haltAtRow=N}: the process halts (as if killed with -9) on reaching row N. */
    String HALT_AT_ROW = "copydesk.test.import.haltAtRow";

    /** Exit status of a halted process: 128 + 9, as a shell reports a process killed with -9. */
    int HALTED = 137;

    ImportHook NONE = row -> { };

    /** Called as row {@code row} (1-based, in file order) has been read, before anything is done with it. */
    void rowRead(long row);

    static ImportHook fromSystemProperties() {
        Long haltAt = Long.getLong(HALT_AT_ROW);
        if (haltAt == null) {
            return NONE;
        }
        return row -> {
            if (row == haltAt) {
                Runtime.getRuntime().halt(HALTED);
            }
        };
    }
}
