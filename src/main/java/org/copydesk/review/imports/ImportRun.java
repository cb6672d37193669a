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

    private final ImportTarget target;
    private final ImportSettings settings;
    private final ArticleRowValidator validator;
    private final ArticleBatchWriter writer;
    private final ImportListener listener;
    private final long totalBytes;
    private final long progressIntervalNanos;
    private final long started = System.nanoTime();

    private final ExternalIdFingerprints seen = new ExternalIdFingerprints();
    /** Rows earlier imports of this source kept aside (see ImportQuarantine#fingerprintsOf). */
    private final java.util.Set<String> keptAsideBefore;
    private long keptAsideAgain;
    private final List<ValidatedArticle> batch = new ArrayList<>();
    private final List<QuarantineEntry> pendingQuarantine = new ArrayList<>();
    private long batchBytes;
    private final List<ImportProblem> problems = new ArrayList<>();
    private final List<RevisionRow> revisionRows = new ArrayList<>();
    private long moreProblems;
    private final List<String> warnings = new ArrayList<>();
    private long moreWarnings;
    private final Map<String, Long> unknownFields = new LinkedHashMap<>();
    private long otherUnknownFields;

    private ImportFormat format;
    private char delimiter = ',';
    private CsvRowParser csv;
    private Utf8Feed feed;
    private long rowsRead;
    private long imported;
    private long alreadyPresent;
    private long quarantined;
    private long lastProgress;
    private boolean cancelled;

    ImportRun(ImportTarget target, ImportSettings settings, ArticleRowValidator validator, ArticleBatchWriter writer,
              ImportListener listener, long totalBytes, java.util.Set<String> keptAsideBefore) {
        this.keptAsideBefore = keptAsideBefore;
        this.target = target;
        this.settings = settings;
        this.validator = validator;
        this.writer = writer;
        this.listener = listener;
        this.totalBytes = totalBytes;
        this.progressIntervalNanos = settings.progressInterval().toNanos();
        this.lastProgress = started;
    }

    ImportReport run(InputStream input) {
        try {
            BufferedInputStream in = new BufferedInputStream(input, FormatSniffer.PEEK_BYTES + 1);
            FormatSniffer.Sniffed sniffed = FormatSniffer.sniff(in, target.sourceName());
            if (sniffed.utf16()) {
                rejectUtf16(in);
            } else if (sniffed.format() == null) {
                warning("the file is empty");
            } else {
                format = sniffed.format();
                delimiter = sniffed.delimiter();
                RecordSplitter splitter = switch (format) {
                    case JSON_ARRAY -> new JsonArraySplitter(this::onRecord, this::warning);
                    case JSON_LINES -> new JsonLinesSplitter(this::onRecord);
                    case CSV -> new CsvSplitter(this::onRecord, delimiter);
                };
                feed = new Utf8Feed(in, splitter);
                try {
                    feed.pump();
                } catch (Utf8Feed.StopReading stop) {
                    cancelled = true;
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
            return;
        }
        rowsRead++;
        String raw = rawText(record);
        String problem = record.structuralProblem();
        if (problem == null && record.malformedLine() != 0) {
            problem = "line " + record.malformedLine() + " holds bytes that are not valid UTF-8 (shown as \uFFFD); "
                    + "save the file as UTF-8";
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
        if (!keptAsideBefore.isEmpty() && keptAsideBefore.contains(ImportQuarantine.fingerprint(raw))) {
            // refused again, and still reported by line; the quarantine has it from an earlier import
            keptAsideAgain++;
            quarantined++;
            if (problems.size() < settings.problemsKept()) {
                problems.add(new ImportProblem(line, reason));
            } else {
                moreProblems++;
            }
            return;
        }
        pendingQuarantine.add(new QuarantineEntry(line, raw, reason));
        batchBytes += 3L * raw.length();
    }

    private void flush() {
        if (batch.isEmpty() && pendingQuarantine.isEmpty()) {
            return;
        }
        BatchOutcome outcome = writer.write(List.copyOf(batch), List.copyOf(pendingQuarantine), target);
        imported += outcome.imported();
        alreadyPresent += outcome.alreadyPresent();
        revisionRows.addAll(outcome.revisions());
        quarantined += outcome.quarantined().size();
        for (QuarantineEntry q : outcome.quarantined()) {
            if (problems.size() < settings.problemsKept()) {
                problems.add(new ImportProblem(q.line(), q.reason()));
            } else {
                moreProblems++;
            }
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
            throw new Utf8Feed.StopReading();
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

    /** A UTF-16 file decodes as UTF-8 without errors in places (its ASCII is valid UTF-8 with NULs), so it is refused whole. */
    private void rejectUtf16(BufferedInputStream in) throws IOException {
        byte[] head = in.readNBytes(Math.min(settings.rawTextLimit(), FormatSniffer.PEEK_BYTES));
        String shown = new String(head, (head[0] & 0xFF) == 0xFF ? StandardCharsets.UTF_16LE : StandardCharsets.UTF_16BE);
        rowsRead++;
        quarantine(1, shown,
                "the file is UTF-16 encoded; Copydesk reads UTF-8: save it as UTF-8 and import it again");
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
                    + " kept aside by an earlier import of this file already; not added to the quarantine again");
        }
        allWarnings.addAll(warnings);
        if (moreWarnings > 0) {
            allWarnings.add(moreWarnings + " more warnings");
        }
        List<ImportProblem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingLong(ImportProblem::line));
        return new ImportReport(target.importId(), target.sourceName(), format, rowsRead, imported, alreadyPresent,
                quarantined, sorted, moreProblems, allWarnings, feed == null ? 0 : feed.bytesRead(), cancelled,
                Duration.ofNanos(System.nanoTime() - started),
                revisionRows.stream().sorted(Comparator.comparingLong(RevisionRow::line)).toList());
    }
}
