package org.copydesk.review.imports;

import static org.copydesk.db.schema.Tables.DESK;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Imports articles from JSON (an array, or one object per line) and CSV files; the format is
 * described in {@code docs/import-format.md}. Good rows become queued articles, each with an
 * 'import' event in its history; bad rows go to the import quarantine with their line, text and
 * reason. Importing the same file again adds nothing twice: external ids already in the table are
 * counted as already present. Safe to call from several threads, one import per call.
 */
public final class ArticleImporter {

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final DSLContext dsl;
    private final Clock clock;
    private final ImportSettings settings;
    private final boolean reopenDecided;
    private final ImportHook hook = ImportHook.fromSystemProperties();

    /** @param clock only names imports (their id starts with the date); times stored come from the server */
    public ArticleImporter(DSLContext dsl, Clock clock) {
        this(dsl, clock, ImportSettings.defaults());
    }

    public ArticleImporter(DSLContext dsl, Clock clock, ImportSettings settings) {
        this(dsl, clock, settings, false);
    }

    private ArticleImporter(DSLContext dsl, Clock clock, ImportSettings settings, boolean reopenDecided) {
        this.dsl = dsl;
        this.clock = clock;
        this.settings = settings;
        this.reopenDecided = reopenDecided;
    }

    /**
     * This importer, but a new revision of an article already approved, rejected or quarantined
     * reopens it (back in the queue) instead of being reported as already decided.
     */
    public ArticleImporter reopeningDecided() {
        return new ArticleImporter(dsl, clock, settings, true);
    }

    /**
     * Imports one file; its extension (.json, .ndjson, .jsonl, .csv, .tsv) says the format, the
     * content decides otherwise.
     *
     * @param actor the importing user, written to each article's history (at most 64 characters)
     * @throws ImportFailedException when the file cannot be read or the database fails; never for bad rows
     */
    public ImportReport importFile(Path file, String actor, ImportListener listener) {
        String source = file.toAbsolutePath().normalize().toString();
        long size;
        InputStream in;
        try {
            size = Files.size(file);
            in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new ImportFailedException("no such file: " + file, emptyReport(source), e);
        } catch (IOException e) {
            throw new ImportFailedException("cannot open " + file + ": " + e.getMessage(), emptyReport(source), e);
        }
        try (in) {
            return importOpened(in, source, size, () -> Files.newInputStream(file), actor, listener);
        } catch (IOException e) {
            // closing a file we only read; nothing was lost
            throw new ImportFailedException("cannot close " + file + ": " + e.getMessage(), emptyReport(source), e);
        }
    }

    /**
     * Imports from a stream, which the caller closes.
     *
     * @param sourceName shown in reports and stored with bad rows; its extension, if any, says the format
     * @param totalBytes the stream's length for progress, or -1 when unknown
     */
    public ImportReport importStream(InputStream in, String sourceName, long totalBytes, String actor, ImportListener listener) {
        return importOpened(in, sourceName, totalBytes, null, actor, listener);
    }

    /**
     * Imports from an opened input.
     *
     * @param wholeFile opens the input again from its start for the check that needs all of it (8-bit
     *                  text refused whole), or null when it can be read only once
     */
    ImportReport importOpened(InputStream in, String sourceName, long totalBytes, ImportRun.ReadAgain wholeFile, String actor,
                              ImportListener listener) {
        if (actor == null || actor.isBlank() || actor.length() > 64) {
            throw new IllegalArgumentException("the importing user's name must be 1 to 64 characters");
        }
        String source = sourceName == null || sourceName.isBlank() ? "(stream)" : sourceName;
        ImportTarget target = new ImportTarget(newImportId(), source, actor, reopenDecided);
        Map<String, String> desks;
        long packet;
        try {
            desks = desks(dsl);
            packet = maxAllowedPacket(dsl);
        } catch (RuntimeException e) {
            throw new ImportFailedException("the database is not available: " + SqlFailures.message(e),
                    emptyReport(source), e);
        }
        ArticleRowValidator validator = new ArticleRowValidator(desks, bodyLimit(packet));
        ArticleBatchWriter writer = new ArticleBatchWriter(dsl);
        // a batch travels as one call: it must fit in the server's packet with room to spare
        ImportSettings fitting = new ImportSettings(settings.batchRows(), batchBytes(packet, settings), settings.problemsKept(),
                settings.rawTextLimit(), settings.progressInterval());
        ImportRun.Sources sources = new ImportRun.Sources(totalBytes, wholeFile,
                fingerprints -> ImportQuarantine.keptAsideEarlier(dsl, fingerprints, target.importId()), hook);
        return new ImportRun(target, fitting, validator, writer, listener == null ? ImportListener.NONE : listener, sources)
                .run(in);
    }

    /** The rows imports kept aside, to list, correct and requeue, or dismiss. */
    public ImportQuarantine quarantine() {
        return new ImportQuarantine(dsl);
    }

    static Map<String, String> desks(DSLContext dsl) {
        Map<String, String> byLowerCase = new HashMap<>();
        for (String id : dsl.select(DESK.ID).from(DESK).fetch(DESK.ID)) {
            byLowerCase.put(id.toLowerCase(Locale.ROOT), id);
        }
        return byLowerCase;
    }

    /**
     * The server's largest packet: one statement (so one row) must fit in it. The one plain-SQL
     * read of the package, because jOOQ has no handle for server variables.
     */
    static long maxAllowedPacket(DSLContext dsl) {
        Long value = dsl.fetchValue(DSL.field("@@max_allowed_packet", Long.class));
        return value == null ? 16L << 20 : value;
    }

    /** MEDIUMTEXT's limit, or less when the packet limit is smaller (room kept for the other fields and the statement). */
    static long bodyLimit(long maxAllowedPacket) {
        return Math.max(1024, Math.min(ArticleRowValidator.BODY_MAX_BYTES, maxAllowedPacket - (1L << 20)));
    }

    /** A batch's size: the settings' unless a quarter of the packet is less (JSON escaping can double text). */
    static int batchBytes(long maxAllowedPacket, ImportSettings settings) {
        return (int) Math.max(64 * 1024, Math.min(settings.batchBytes(), maxAllowedPacket / 4));
    }

    private String newImportId() {
        return "imp-" + ID_TIME.format(clock.instant()) + "-"
                + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    }

    private static ImportReport emptyReport(String source) {
        return new ImportReport(null, source, null, 0, 0, 0, 0, List.of(), 0, List.of(), 0, false, Duration.ZERO);
    }
}
