package org.copydesk.review.imports;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One import from start to end: cuts the input into rows, parses and validates each, collects
 * good rows and bad rows into batches and has each batch written in one transaction. Keeps only
 * the batch in hand and the fingerprints of the ids seen, whatever the size of the file.
 */
final class ImportRun {

    private static final Logger log = LoggerFactory.getLogger(ImportRun.class);
    private static final int WARNINGS_KEPT = 100;
    private static final int UNKNOWN_FIELD_NAMES_KEPT = 20;
    /** How the report's note on a file without rows begins (the drop folder files such a file as done, not failed). */
    static final String NO_ROWS = "no rows: ";

    private final ImportTarget target;
    private final ImportSettings settings;
    private final ArticleRowValidator validator;
    private final ArticleBatchWriter writer;
    private final ImportListener listener;
    private final long totalBytes;
    private final long progressIntervalNanos;
    private final long started = System.nanoTime();

    private final ExternalIdFingerprints seen = new ExternalIdFingerprints();
    /** Of the fingerprints given, those an earlier import kept aside already, with its id (ImportQuarantine#keptAsideEarlier). */
    private final Function<Set<String>, Map<String, String>> keptAsideEarlier;
    private final ReadAgain wholeFile;
    private final ImportHook hook;
    private long keptAsideAgain;
    /** The earlier imports the rows kept aside again are under, for the report to name. */
    private final Set<String> earlierImports = new java.util.TreeSet<>();
    private final List<ValidatedArticle> batch = new ArrayList<>();
    private final List<QuarantineEntry> pendingQuarantine = new ArrayList<>();
    private long batchBytes;
    private final List<ImportProblem> problems = new ArrayList<>();
    private final List<RevisionRow> revisionRows = new ArrayList<>();
    private long moreProblems;
    private final List<String> warnings = new ArrayList<>();
    /** Lines of new articles already past their due time when imported: taken, and told in the report. */
    private final List<Long> lateLines = new ArrayList<>();
    private long moreWarnings;
    private final Map<String, Long> unknownFields = new LinkedHashMap<>();
    private long otherUnknownFields;

    private ImportFormat format;
    private char delimiter = ',';
    private CsvRowParser csv;
    private TextFeed feed;
    private long rowsRead;
    private long imported;
    private long alreadyPresent;
    private long quarantined;
    private long lastProgress;
    private boolean cancelled;

    /** Opens the whole input again from its first byte, for the encoding check that needs all of it. */
    interface ReadAgain {
        InputStream open() throws IOException;
    }

    /** What an import reads and what it asks the database besides writing its batches. */
    record Sources(long totalBytes, ReadAgain wholeFile, Function<Set<String>, Map<String, String>> keptAsideEarlier, ImportHook hook) {
    }

    /** @param sources {@code wholeFile} null for a stream that can be read only once (no whole-file encoding check) */
    ImportRun(ImportTarget target, ImportSettings settings, ArticleRowValidator validator, ArticleBatchWriter writer,
              ImportListener listener, Sources sources) {
        this.keptAsideEarlier = sources.keptAsideEarlier();
        this.wholeFile = sources.wholeFile();
        this.hook = sources.hook();
        this.target = target;
        this.settings = settings;
        this.validator = validator;
        this.writer = writer;
        this.listener = listener;
        this.totalBytes = sources.totalBytes();
        this.progressIntervalNanos = settings.progressInterval().toNanos();
        this.lastProgress = started;
    }

    ImportReport run(InputStream input) {
        try {
            BufferedInputStream in = new BufferedInputStream(input, FormatSniffer.PEEK_BYTES + 1);
            FormatSniffer.Sniffed sniffed = FormatSniffer.sniff(in, target.sourceName());
            refuseUnreadableText(sniffed.encoding());
            if (sniffed.format() == null) {
                warning(NO_ROWS + "the file is empty");
            } else {
                format = sniffed.format();
                delimiter = sniffed.delimiter();
                RecordSplitter splitter = switch (format) {
                    case JSON_ARRAY -> new JsonArraySplitter(this::onRecord, this::warning);
                    case JSON_LINES -> new JsonLinesSplitter(this::onRecord);
                    case CSV -> new CsvSplitter(this::onRecord, delimiter);
                };
                feed = new TextFeed(in, splitter, sniffed.encoding().charset());
                try {
                    feed.pump();
                } catch (TextFeed.StopReading stop) {
                    cancelled = true;
                }
                if (rowsRead == 0 && !cancelled) {
                    warning(NO_ROWS + (csv != null ? "the file holds only its header line" : "the file holds no article"));
                }
            }
            flush();
            progress();
        } catch (IOException e) {
            throw fail("could not read " + target.sourceName() + ": " + e.getMessage(), e);
        } catch (ImportFailedException e) {
            throw e;
        } catch (org.jooq.exception.DataAccessException e) {
            // content errors were turned into quarantined rows; what reaches here is the database itself
            throw fail("the database stopped the import: " + SqlFailures.message(e), e);
        } catch (RuntimeException e) {
            // a bug of ours; still report what was committed so the user knows where things stand
            log.error("Import {} failed unexpectedly", target.importId(), e);
            throw fail("the import failed unexpectedly (" + e + ")", e);
        }
        ImportReport report = report();
        log.info("Import {} of {} ({}): {} rows read, {} imported, {} already present, {} quarantined in {} ms{}",
                target.importId(), target.sourceName(), format == null ? "nothing to read" : format.displayName(),
                report.rowsRead(), report.imported(), report.alreadyPresent(), report.quarantined(),
                report.duration().toMillis(), cancelled ? " (cancelled)" : "");
        return report;
    }

    private ImportFailedException fail(String message, Exception cause) {
        ImportReport partial = report();
        log.warn("Import {} of {} stopped: {} ({} imported before)", target.importId(), target.sourceName(), message,
                partial.imported());
        return new ImportFailedException(message + ". Batches already written stay; importing the file again adds the rest.",
                partial, cause);
    }

    private void onRecord(RawRecord record) {
        if (format == ImportFormat.CSV && csv == null) {
            csv = CsvRowParser.forHeader(record, delimiter);
            if (csv.problem() != null) {
                // said once for the file: no row of it could be read
                throw refused(csv.problem());
            }
            return;
        }
        rowsRead++;
        hook.rowRead(rowsRead);
        String raw = rawText(record);
        String problem = record.structuralProblem();
        if (problem == null && record.malformedLine() != 0) {
            problem = "line " + record.malformedLine() + " holds " + record.malformed()
                    + (StandardCharsets.UTF_8.equals(feed.charset()) ? "; save the file as UTF-8" : "; the file is damaged there");
        }
        if (problem == null && record.tooLong()) {
            problem = "the row is " + record.length() + " characters long; rows are read up to " + RecordText.MAX_CHARS
                    + " characters (a body may have at most " + validator.bodyMaxBytes() + " bytes)";
        }
        ParsedRow parsed = null;
        if (problem == null) {
            parsed = format == ImportFormat.CSV ? csv.parse(record.text()) : JsonRowParser.parse(record.text(), record.line());
            problem = parsed.problem();
        }
        if (problem != null) {
            quarantine(record.line(), raw, problem);
        } else {
            String[] refusal = new String[1];
            ValidatedArticle article = validator.validate(record.line(), parsed.fields(), raw, r -> refusal[0] = r,
                    this::unknownField);
            if (article == null) {
                quarantine(record.line(), raw, refusal[0]);
            } else {
                long firstLine = seen.putIfAbsent(article.externalId(), record.line());
                if (firstLine != 0) {
                    quarantine(record.line(), raw, "duplicate: external_id \"" + ImportText.visible(article.externalId(), 60)
                            + "\" already appeared on line " + firstLine + " of this file (the first one counts)");
                } else {
                    batch.add(article);
                    batchBytes += article.size();
                }
            }
        }
        if (batch.size() + pendingQuarantine.size() >= settings.batchRows() || batchBytes >= settings.batchBytes()) {
            flush();
            progress();
            checkCancelled();
        } else if (System.nanoTime() - lastProgress >= progressIntervalNanos) {
            progress();
            checkCancelled();
        }
    }

    private String rawText(RawRecord record) {
        if (format == ImportFormat.CSV) {
            String header = csv.headerText();
            return ImportText.rawForQuarantine(header + "\n" + record.text(), header.length() + 1 + record.length(),
                    settings.rawTextLimit());
        }
        return ImportText.rawForQuarantine(record.text(), record.length(), settings.rawTextLimit());
    }

    private void quarantine(long line, String raw, String reason) {
        pendingQuarantine.add(new QuarantineEntry(line, raw, reason));
        batchBytes += 3L * raw.length();
    }

    /**
     * Leaves out of the batch the bad rows an earlier import (of this file or any other, under any
     * name) kept aside already, still open or dealt with: a file dropped twice, or resumed after a
     * crash, does not fill the quarantine twice. They are still reported by line.
     */
    private void leaveOutRowsKeptAsideBefore() {
        if (pendingQuarantine.isEmpty()) {
            return;
        }
        Map<String, List<QuarantineEntry>> byFingerprint = new LinkedHashMap<>();
        for (QuarantineEntry q : pendingQuarantine) {
            byFingerprint.computeIfAbsent(ImportQuarantine.fingerprint(q.rawText()), f -> new ArrayList<>()).add(q);
        }
        Map<String, String> before = keptAsideEarlier.apply(byFingerprint.keySet());
        earlierImports.addAll(before.values());
        for (String fingerprint : before.keySet()) {
            for (QuarantineEntry q : byFingerprint.getOrDefault(fingerprint, List.of())) {
                pendingQuarantine.remove(q);
                keptAsideAgain++;
                quarantined++;
                listProblem(new ImportProblem(q.line(), q.reason()));
            }
        }
    }

    private void listProblem(ImportProblem problem) {
        if (problems.size() < settings.problemsKept()) {
            problems.add(problem);
        } else {
            moreProblems++;
        }
    }

    private void flush() {
        leaveOutRowsKeptAsideBefore();
        if (batch.isEmpty() && pendingQuarantine.isEmpty()) {
            return;
        }
        BatchOutcome outcome = writer.write(List.copyOf(batch), List.copyOf(pendingQuarantine), target);
        imported += outcome.imported();
        alreadyPresent += outcome.alreadyPresent();
        revisionRows.addAll(outcome.revisions());
        lateLines.addAll(outcome.lateLines());
        quarantined += outcome.quarantined().size();
        for (QuarantineEntry q : outcome.quarantined()) {
            listProblem(new ImportProblem(q.line(), q.reason()));
        }
        batch.clear();
        pendingQuarantine.clear();
        batchBytes = 0;
    }

    private void checkCancelled() {
        boolean stop;
        try {
            stop = listener.cancelRequested() || Thread.currentThread().isInterrupted();
        } catch (RuntimeException e) {
            log.warn("import listener failed; import goes on", e);
            stop = false;
        }
        if (stop) {
            flush();
            throw new TextFeed.StopReading();
        }
    }

    private void progress() {
        lastProgress = System.nanoTime();
        try {
            listener.progress(new ImportProgress(target.importId(), target.sourceName(), rowsRead, imported,
                    alreadyPresent, quarantined, feed == null ? 0 : feed.bytesRead(), totalBytes));
        } catch (RuntimeException e) {
            log.warn("import listener failed; import goes on", e);
        }
    }

    private void warning(String warning) {
        if (warnings.size() < WARNINGS_KEPT) {
            warnings.add(warning);
        } else {
            moreWarnings++;
        }
    }

    private void unknownField(String name) {
        Long count = unknownFields.get(name);
        if (count != null) {
            unknownFields.put(name, count + 1);
        } else if (unknownFields.size() < UNKNOWN_FIELD_NAMES_KEPT) {
            // bounded: a fuzzed file can invent a new field name on every row
            unknownFields.put(name, 1L);
        } else {
            otherUnknownFields++;
        }
    }

    /**
     * A file that is not text, or not in an encoding Copydesk reads, is refused whole in one
     * sentence before any row is written: read row by row it would become hundreds of rows of
     * garbage in the quarantine, or text with its accents broken.
     */
    private void refuseUnreadableText(TextEncoding.Detected encoding) throws IOException {
        if (encoding.refusedFile()) {
            throw refused(encoding.refusal());
        }
        if (encoding.utf8WithoutBom() && wholeFile != null) {
            String eightBit;
            try (InputStream again = wholeFile.open()) {
                eightBit = TextEncoding.eightBitRefusal(again);
            }
            if (eightBit != null) {
                throw refused(eightBit);
            }
        }
    }

    /** The whole file is refused for a reason of its own; nothing of it was written. */
    private ImportFailedException refused(String why) {
        log.info("Import {} of {} refused: {}", target.importId(), target.sourceName(), why);
        return new ImportFailedException(why, report(), null);
    }

    private ImportReport report() {
        List<String> allWarnings = new ArrayList<>();
        unknownFields.forEach((name, count) -> allWarnings.add("unknown field \"" + ImportText.visible(name, 60)
                + "\" ignored (in " + count + (count == 1 ? " row)" : " rows)")));
        if (otherUnknownFields > 0) {
            allWarnings.add("more unknown fields ignored (" + otherUnknownFields + " times)");
        }
        if (keptAsideAgain > 0) {
            allWarnings.add(keptAsideAgain + (keptAsideAgain == 1 ? " refused row was" : " refused rows were")
                    + " kept aside by an earlier import already (the same text, from this file or another); not added to the"
                    + " quarantine again: see import " + String.join(", ", earlierImports.stream().limit(5).toList())
                    + (earlierImports.size() > 5 ? " and " + (earlierImports.size() - 5) + " more" : ""));
        }
        if (!lateLines.isEmpty()) {
            allWarnings.add(LateRows.warning(lateLines));
        }
        allWarnings.addAll(warnings);
        if (moreWarnings > 0) {
            allWarnings.add(moreWarnings + " more warnings");
        }
        List<ImportProblem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingLong(ImportProblem::line));
        return new ImportReport(target.importId(), target.sourceName(), format, rowsRead, imported, alreadyPresent,
                quarantined, keptAsideAgain, sorted, moreProblems, allWarnings, feed == null ? 0 : feed.bytesRead(), cancelled,
                Duration.ofNanos(System.nanoTime() - started),
                revisionRows.stream().sorted(Comparator.comparingLong(RevisionRow::line)).toList());
    }
}
