package org.copydesk.review.imports;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.ImportQuarantineRecord;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.ArticleLeases;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStep5;
import org.jooq.InsertValuesStep7;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a batch of validated articles, their 'import' history events and the batch's bad rows in
 * one transaction, so a batch is either all in or all out.
 *
 * <p>Ids already in the table are found first and counted as already present. The rest go in with
 * one multi-row {@code INSERT … ON DUPLICATE KEY UPDATE id = id} (not {@code INSERT IGNORE}, which
 * would also turn a refused value into a silently clipped one). Ids compare exactly (V3 migration),
 * and duplicates inside a file are caught before they reach a batch; a row that still did not go in
 * was inserted by a concurrent import since the look-up, and counts as already present. Either way
 * each id is in the table once.
 */
final class ArticleBatchWriter {

    private static final Logger log = LoggerFactory.getLogger(ArticleBatchWriter.class);
    private static final int ATTEMPTS = 4;
    /**
     * Rows per INSERT statement (a batch's transaction holds several). Kept small enough that the
     * statement's text stays under the driver's prepared-statement cache limit (prepStmtCacheSqlLimit
     * 4096 characters): a longer one is prepared on the server afresh for every execution, which
     * made 500-row statements several times slower.
     */
    static final int ROWS_PER_STATEMENT = 100;
    /** A {@code lease_event.action} for an article's arrival; the lease engine's own actions are in LeaseAction. */
    static final String IMPORT_ACTION = "import";

    private final DSLContext dsl;
    private final int statementBytes;

    ArticleBatchWriter(DSLContext dsl, int statementBytes) {
        this.dsl = dsl;
        this.statementBytes = statementBytes;
    }

    /**
     * Writes the batch, retrying on deadlocks; when the server refuses some value, writes the rows
     * one by one and quarantines the refused ones with the server's message.
     *
     * @throws org.jooq.exception.DataAccessException when the database is unavailable
     */
    BatchOutcome write(List<ValidatedArticle> rows, List<QuarantineEntry> quarantine, ImportTarget target) {
        try {
            return retrying(() -> dsl.transactionResult(c -> writeIn(c.dsl(), rows, quarantine, target)));
        } catch (RuntimeException e) {
            if (!SqlFailures.isRowRefused(e) || rows.isEmpty()) {
                throw e;
            }
            log.debug("batch refused ({}); writing its {} rows one by one", SqlFailures.message(e), rows.size());
        }
        Map<String, Long> inserted = new HashMap<>();
        int present = 0;
        List<QuarantineEntry> bad = new ArrayList<>(quarantine);
        List<QuarantineEntry> refused = new ArrayList<>();
        for (ValidatedArticle row : rows) {
            try {
                BatchOutcome one = retrying(() -> dsl.transactionResult(c -> writeIn(c.dsl(), List.of(row), List.of(), target)));
                inserted.putAll(one.insertedIds());
                present += one.alreadyPresent();
                bad.addAll(one.quarantined());
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
        retrying(() -> dsl.transactionResult(c -> {
            insertQuarantine(c.dsl(), notYetWritten, target);
            return null;
        }));
        bad.addAll(refused);
        return new BatchOutcome(inserted, present, bad);
    }

    /** The batch's work inside a transaction the caller runs (also used by a requeue from the quarantine). */
    BatchOutcome writeIn(DSLContext tx, List<ValidatedArticle> rows, List<QuarantineEntry> quarantine, ImportTarget target) {
        Map<String, Long> inserted = new HashMap<>();
        int present = 0;
        if (!rows.isEmpty()) {
            Set<String> ids = new HashSet<>();
            rows.forEach(row -> ids.add(row.externalId()));
            Set<String> existing = new HashSet<>(tx.select(ARTICLE.EXTERNAL_ID).from(ARTICLE)
                    .where(ARTICLE.EXTERNAL_ID.in(ids)).fetch(ARTICLE.EXTERNAL_ID));
            List<ValidatedArticle> candidates = rows.stream().filter(row -> !existing.contains(row.externalId())).toList();
            if (!candidates.isEmpty()) {
                insertArticles(tx, candidates);
                Set<String> candidateIds = new HashSet<>();
                candidates.forEach(r -> candidateIds.add(r.externalId()));
                tx.select(ARTICLE.ID, ARTICLE.EXTERNAL_ID).from(ARTICLE).where(ARTICLE.EXTERNAL_ID.in(candidateIds))
                        .forEach(r -> inserted.put(r.value2(), r.value1()));
                insertEvents(tx, candidates, inserted, target);
            }
            present = rows.size() - inserted.size();
        }
        insertQuarantine(tx, quarantine, target);
        return new BatchOutcome(inserted, present, quarantine);
    }

    private void insertArticles(DSLContext tx, List<ValidatedArticle> rows) {
        InsertValuesStep7<ArticleRecord, String, String, String, String, String, Integer, LocalDateTime> insert = null;
        long bytes = 0;
        int n = 0;
        for (ValidatedArticle row : rows) {
            if (insert != null && (bytes + row.size() > statementBytes || n == ROWS_PER_STATEMENT)) {
                execute(insert);
                insert = null;
                bytes = 0;
                n = 0;
            }
            if (insert == null) {
                insert = tx.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BYLINE,
                        ARTICLE.BODY, ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT);
            }
            // no embargo: the server's NOW(6), like every other time the database keeps
            Field<LocalDateTime> availableAt = row.availableAt() == null ? ServerClock.now()
                    : DSL.val(row.availableAt(), ARTICLE.AVAILABLE_AT);
            insert = insert.values(DSL.val(row.externalId(), ARTICLE.EXTERNAL_ID), DSL.val(row.deskId(), ARTICLE.DESK_ID),
                    DSL.val(row.title(), ARTICLE.TITLE), DSL.val(row.byline(), ARTICLE.BYLINE),
                    DSL.val(row.body(), ARTICLE.BODY), DSL.val(row.priority(), ARTICLE.PRIORITY), availableAt);
            bytes += row.size();
            n++;
        }
        if (insert != null) {
            execute(insert);
        }
    }

    private static void execute(InsertValuesStep7<ArticleRecord, String, String, String, String, String, Integer, LocalDateTime> insert) {
        insert.onDuplicateKeyUpdate().set(ARTICLE.ID, ARTICLE.ID).execute();
    }

    private void insertEvents(DSLContext tx, List<ValidatedArticle> candidates, Map<String, Long> inserted, ImportTarget target) {
        InsertValuesStep5<LeaseEventRecord, String, String, String, String, String> insert = null;
        int n = 0;
        Set<String> done = new HashSet<>();
        for (ValidatedArticle row : candidates) {
            Long id = inserted.get(row.externalId());
            if (id == null || !done.add(row.externalId())) {
                continue;
            }
            if (insert == null) {
                insert = tx.insertInto(LEASE_EVENT, LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTION,
                        LEASE_EVENT.ACTOR, LEASE_EVENT.DETAIL);
            }
            String detail = ImportText.shorten("import " + target.importId() + ": line " + row.line() + " of "
                    + target.sourceName(), 2000);
            insert = insert.values(ArticleLeases.RESOURCE, Long.toString(id), IMPORT_ACTION, target.actor(), detail);
            if (++n == ROWS_PER_STATEMENT) {
                insert.execute();
                insert = null;
                n = 0;
            }
        }
        if (insert != null) {
            insert.execute();
        }
    }

    private void insertQuarantine(DSLContext tx, List<QuarantineEntry> entries, ImportTarget target) {
        InsertValuesStep5<ImportQuarantineRecord, String, String, Long, String, String> insert = null;
        long bytes = 0;
        String source = ImportText.shortenFromStart(target.sourceName(), 500);
        for (QuarantineEntry q : entries) {
            long size = 3L * q.rawText().length() + 3L * q.reason().length() + 64;
            if (insert != null && bytes + size > statementBytes) {
                insert.execute();
                insert = null;
                bytes = 0;
            }
            if (insert == null) {
                insert = tx.insertInto(IMPORT_QUARANTINE, IMPORT_QUARANTINE.IMPORT_ID, IMPORT_QUARANTINE.SOURCE_NAME,
                        IMPORT_QUARANTINE.LINE_NUMBER, IMPORT_QUARANTINE.RAW_TEXT, IMPORT_QUARANTINE.REASON);
            }
            insert = insert.values(target.importId(), source, q.line(), q.rawText(), ImportText.shorten(q.reason(), 1000));
            bytes += size;
        }
        if (insert != null) {
            insert.execute();
        }
    }

    private static <T> T retrying(java.util.function.Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (!SqlFailures.isTransient(e) || attempt >= ATTEMPTS) {
                    throw e;
                }
                log.debug("import batch hit {}; attempt {} of {}", SqlFailures.message(e), attempt, ATTEMPTS);
                try {
                    Thread.sleep(50L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
