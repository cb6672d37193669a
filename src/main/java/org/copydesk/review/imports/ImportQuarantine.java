package org.copydesk.review.imports;

import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import java.util.Collection;
import java.util.List;
import org.copydesk.AllowedBecause;
import org.copydesk.db.schema.tables.records.ImportQuarantineRecord;
import org.copydesk.lease.ServerClock;
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

    public int countOpen(String importId) {
        return dsl.fetchCount(IMPORT_QUARANTINE, open(importId));
    }

    /** Dismisses rows (server time); returns how many were still open. */
    @AllowedBecause("an administrator's bulk dismissal of rows an import kept aside (no screen or command calls it);"
            + " people discard rows through the operation discard_import_row")
    public int markResolved(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return dsl.update(IMPORT_QUARANTINE).set(IMPORT_QUARANTINE.RESOLVED_AT, ServerClock.now())
                .where(IMPORT_QUARANTINE.ID.in(ids)).and(IMPORT_QUARANTINE.RESOLVED_AT.isNull()).execute();
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
                    article.title(), article.byline(), article.body(), article.priority(), article.availableAt(), true);
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
     * Fingerprints (MD5 of the raw text, as {@link #fingerprint} computes it) of every row, open or
     * dealt with, that earlier imports of {@code sourceName} kept aside: importing the same file
     * again does not keep the same refused rows aside twice. One read per import.
     */
    static java.util.Set<String> fingerprintsOf(DSLContext dsl, String sourceName) {
        String source = ImportText.shortenFromStart(sourceName, 500);
        return new java.util.HashSet<>(dsl.selectDistinct(org.jooq.impl.DSL.md5(IMPORT_QUARANTINE.RAW_TEXT))
                .from(IMPORT_QUARANTINE).where(IMPORT_QUARANTINE.SOURCE_NAME.eq(source)).fetch(0, String.class));
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
