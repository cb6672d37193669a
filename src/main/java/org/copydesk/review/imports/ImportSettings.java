package org.copydesk.review.imports;

import java.time.Duration;

/**
 * Tuning knobs of an import.
 *
 * @param batchRows        rows per multi-row INSERT and per transaction
 * @param batchBytes       a batch is also written once its text reaches this size, so one statement
 *                         stays well below the server's {@code max_allowed_packet}
 * @param problemsKept     how many problems the report lists (all of them are in the quarantine table)
 * @param rawTextLimit     characters of a bad row kept in the quarantine table; longer rows are cut and say so
 * @param progressInterval the listener hears about progress at most this often (and after every batch)
 */
public record ImportSettings(int batchRows, int batchBytes, int problemsKept, int rawTextLimit, Duration progressInterval) {

    public ImportSettings {
        if (batchRows < 1 || batchBytes < 1024 || problemsKept < 0 || rawTextLimit < 256 || progressInterval.isNegative()) {
            throw new IllegalArgumentException("invalid import settings");
        }
    }

    public static ImportSettings defaults() {
        return new ImportSettings(1000, 4 * 1024 * 1024, 100, 64 * 1024, Duration.ofMillis(100));
    }
}
