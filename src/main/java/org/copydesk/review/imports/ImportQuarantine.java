package org.copydesk.review.imports;

import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import java.util.List;
import org.copydesk.db.schema.tables.records.ImportQuarantineRecord;
import org.copydesk.review.OperationRefusedException;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * The rows imports could not take, for a supervisor to look at, correct and requeue, or dismiss.
 */
public final class ImportQuarantine {

    private final DSLContext dsl;

    public ImportQuarantine(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Open (unresolved) rows in the order they were quarantined (by import, then line); {@code importId} null means every import. */
    public List<QuarantinedRow> listOpen(String importId, int limit) {
        return dsl.selectFrom(IMPORT_QUARANTINE).where(open(importId))
                .orderBy(IMPORT_QUARANTINE.ID).limit(Math.max(0, limit))
                .fetch(ImportQuarantine::row);
    }

    /** One open (unresolved) row, if it is open. */
    public java.util.Optional<QuarantinedRow> open(long quarantineId) {
        return dsl.selectFrom(IMPORT_QUARANTINE).where(IMPORT_QUARANTINE.ID.eq(quarantineId))
                .and(IMPORT_QUARANTINE.RESOLVED_AT.isNull()).fetchOptional(ImportQuarantine::row);
    }

    public int countOpen(String importId) {
        return dsl.fetchCount(IMPORT_QUARANTINE, open(importId));
    }

    /**
     * Dismisses a row without making an article (the database's {@code discard_import_row}, which
     * records who). False when it was not open (dealt with already, or no such row).
     *
     * @param as the supervisor to act for; null for the signed-in one
     */
    public boolean dismiss(long quarantineId, String as) {
        try {
            new ImportCalls(dsl).discard(as, quarantineId);
            return true;
        } catch (OperationRefusedException e) {
            if (e.getMessage().contains("not waiting for correction")) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Validates a corrected version of a quarantined row with the import's rules and, if it passes,
     * inserts the article (with an 'import' event by {@code actor}) and resolves the entry, in one
     * transaction. The stored raw text stays as the file had it.
     *
     * @param correctedText a JSON object, or a CSV header line followed by one row
     */
    public RequeueResult requeue(long quarantineId, String correctedText, String actor) {
        if (actor == null || actor.isBlank() || actor.length() > 64) {
            throw new IllegalArgumentException("the user's name must be 1 to 64 characters");
        }
        ImportQuarantineRecord entry = dsl.selectFrom(IMPORT_QUARANTINE)
                .where(IMPORT_QUARANTINE.ID.eq(quarantineId)).and(IMPORT_QUARANTINE.RESOLVED_AT.isNull()).fetchOne();
        if (entry == null) {
            return new RequeueResult(RequeueResult.Outcome.NOT_OPEN, null, "no open quarantine entry #" + quarantineId);
        }
        ParsedRow parsed = SingleRowReader.read(correctedText == null ? "" : correctedText);
        if (!parsed.ok()) {
            return new RequeueResult(RequeueResult.Outcome.STILL_INVALID, null, parsed.problem());
        }
        long packet = ArticleImporter.maxAllowedPacket(dsl);
        ArticleRowValidator validator = new ArticleRowValidator(ArticleImporter.desks(dsl), ArticleImporter.bodyLimit(packet));
        String[] refusal = new String[1];
        ValidatedArticle article = validator.validate(entry.getLineNumber(), parsed.fields(),
                ImportText.shorten(correctedText, ImportSettings.defaults().rawTextLimit()), r -> refusal[0] = r, name -> { });
        if (article == null) {
            return new RequeueResult(RequeueResult.Outcome.STILL_INVALID, null, refusal[0]);
        }
        // the database locks the entry, so two supervisors requeueing it at once do not both act
        try {
            ImportCalls.Correction done = new ImportCalls(dsl).correct(actor, quarantineId, article.externalId(), article.deskId(),
                    article.title(), article.byline(), article.body(), article.priority(), article.availableAt(), true, article.due());
            return done.imported() ? new RequeueResult(RequeueResult.Outcome.IMPORTED, done.articleId(), null)
                    : new RequeueResult(RequeueResult.Outcome.ALREADY_PRESENT, null, null);
        } catch (OperationRefusedException e) {
            if (e.getMessage().contains("not waiting for correction")) {
                return new RequeueResult(RequeueResult.Outcome.NOT_OPEN, null,
                        "quarantine entry #" + quarantineId + " was resolved meanwhile");
            }
            throw e;
        }
    }

    /**
     * Of the fingerprints given (MD5 of a bad row's raw text, as {@link #fingerprint} computes it),
     * those of rows that imports other than {@code importId} kept aside already, open or dealt
     * with, from whichever file under whichever name: the same bad row is kept aside once. Each
     * with the import it is under (the first, if several). One read per batch that has bad rows (the
     * server hashes the stored rows; there are few).
     */
    static java.util.Map<String, String> keptAsideEarlier(DSLContext dsl, java.util.Set<String> fingerprints, String importId) {
        if (fingerprints.isEmpty()) {
            return java.util.Map.of();
        }
        org.jooq.Field<String> md5 = org.jooq.impl.DSL.md5(IMPORT_QUARANTINE.RAW_TEXT);
        org.jooq.Field<String> first = org.jooq.impl.DSL.min(IMPORT_QUARANTINE.IMPORT_ID);
        return dsl.select(md5, first).from(IMPORT_QUARANTINE)
                .where(md5.in(fingerprints)).and(IMPORT_QUARANTINE.IMPORT_ID.ne(importId)).groupBy(md5).fetchMap(md5, first);
    }

    /** The server's {@code MD5(raw_text)} for a row kept aside with this text (utf8mb4 is UTF-8). */
    static String fingerprint(String rawText) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("MD5")
                    .digest(rawText.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has MD5", e);
        }
    }

    private static Condition open(String importId) {
        Condition c = IMPORT_QUARANTINE.RESOLVED_AT.isNull();
        return importId == null ? c : c.and(IMPORT_QUARANTINE.IMPORT_ID.eq(importId));
    }

    private static QuarantinedRow row(ImportQuarantineRecord r) {
        return new QuarantinedRow(r.getId(), r.getImportId(), r.getSourceName(), r.getLineNumber(), r.getRawText(),
                r.getReason(), r.getCreatedAt());
    }

}
