package org.copydesk.db;

import java.util.Map;

/**
 * The checksums Flyway recorded for the versioned migrations 1 to 15 as they were released, when
 * they still defined the routines that now live in {@code db/routines}. Those scripts were
 * rewritten to keep only tables, indexes and data; a database migrated before keeps the old
 * checksums in its history (rewriting them would make the clients of the earlier release refuse it),
 * so validation accepts, for these versions, the checksum of either text.
 */
final class ReleasedChecksums {

    private static final Map<String, Integer> BEFORE_ROUTINES_MOVED = Map.ofEntries(
            Map.entry("1", 130333607),
            Map.entry("2", -1407044847),
            Map.entry("3", -433502000),
            Map.entry("4", -1044879922),
            Map.entry("5", 1751908572),
            Map.entry("7", -320197099),
            Map.entry("9", 1714619040),
            Map.entry("11", 1326367075),
            Map.entry("12", 1442948887),
            Map.entry("13", -715842994),
            Map.entry("14", 726357618),
            Map.entry("15", 1002641697));

    private ReleasedChecksums() {
    }

    /** True when {@code checksum} is what version {@code version}'s script had as released before the move. */
    static boolean isReleasedText(String version, Integer checksum) {
        return checksum != null && checksum.equals(BEFORE_ROUTINES_MOVED.get(version));
    }
}
