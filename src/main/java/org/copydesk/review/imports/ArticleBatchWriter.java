package org.copydesk.review.imports;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.copydesk.lease.DatabaseBusyException;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a batch of validated articles, their 'import' history events and the batch's bad rows in
 * one call of the database's {@code import_articles}, which is one transaction: a batch is either
 * all in or all out. An external id already in the table with the same content is left alone and
 * counted as already present; with a different content it is a new revision or "already decided"
 * ({@link RevisionRow}; external ids compare exactly, byte for byte; duplicates inside a file are
 * caught before they reach a batch). Deadlocks are retried by the one retry policy
 * ({@link ImportCalls} calls through {@code DatabaseOperations}); a batch whose connection was lost is
 * not sent again, as it may have committed and its bad rows would be kept aside twice.
 */
final class ArticleBatchWriter {

    private static final Logger log = LoggerFactory.getLogger(ArticleBatchWriter.class);

    private final ImportCalls calls;

    ArticleBatchWriter(DSLContext dsl) {
        this.calls = new ImportCalls(dsl);
    }

    /**
     * Writes the batch, retrying on deadlocks; when the server refuses some value, writes the rows
     * one by one and quarantines the refused ones with the server's message.
     *
     * @throws org.jooq.exception.DataAccessException when the database is unavailable
     */
    BatchOutcome write(List<ValidatedArticle> rows, List<QuarantineEntry> quarantine, ImportTarget target) {
        try {
            ImportCalls.BatchResult result = retrying(() -> calls.importBatch(rows, quarantine, target));
            return new BatchOutcome(result.inserted(), rows.size() - result.inserted().size() - result.revisions().size(),
                    result.revisions(), quarantine, result.lateLines());
        } catch (RuntimeException e) {
            if (!SqlFailures.isRowRefused(e) || rows.isEmpty()) {
                throw e;
            }
            log.debug("batch refused ({}); writing its {} rows one by one", SqlFailures.message(e), rows.size());
        }
        Map<String, Long> inserted = new HashMap<>();
        List<RevisionRow> revisions = new ArrayList<>();
        List<Long> late = new ArrayList<>();
        int present = 0;
        List<QuarantineEntry> refused = new ArrayList<>();
        for (ValidatedArticle row : rows) {
            try {
                ImportCalls.BatchResult one = retrying(() -> calls.importBatch(List.of(row), List.of(), target));
                inserted.putAll(one.inserted());
                revisions.addAll(one.revisions());
                late.addAll(one.lateLines());
                present += one.inserted().isEmpty() && one.revisions().isEmpty() ? 1 : 0;
            } catch (RuntimeException e) {
                if (!SqlFailures.isRowRefused(e)) {
                    throw e;
                }
                refused.add(new QuarantineEntry(row.line(), row.rawText(),
                        "the database refused this row: " + SqlFailures.message(e)));
            }
        }
        // the rolled-back batch did not write its bad rows; write them now with the refused ones
        List<QuarantineEntry> notYetWritten = new ArrayList<>(quarantine);
        notYetWritten.addAll(refused);
        if (!notYetWritten.isEmpty()) {
            retrying(() -> calls.importBatch(List.of(), notYetWritten, target));
        }
        return new BatchOutcome(inserted, present, revisions, notYetWritten, late);
    }

    /** The import reports the database's own words rather than "busy" when every retry of a batch failed. */
    private static <T> T retrying(Supplier<T> work) {
        try {
            return work.get();
        } catch (DatabaseBusyException busy) {
            throw (RuntimeException) busy.getCause();
        }
    }
}
