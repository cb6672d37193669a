package org.copydesk.review.imports;

import java.io.ByteArrayInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one corrected row as a supervisor typed it: a JSON object, or a CSV header line followed by
 * one row (the shape the quarantine stores CSV rows in).
 */
final class SingleRowReader {

    private SingleRowReader() {
    }

    static ParsedRow read(String text) {
        String trimmed = text.strip();
        if (trimmed.startsWith("\uFEFF")) {
            trimmed = trimmed.substring(1).strip();
        }
        if (trimmed.isEmpty()) {
            return ParsedRow.failed("the corrected row is empty");
        }
        if (trimmed.startsWith("{")) {
            return JsonRowParser.parse(trimmed, 1);
        }
        byte[] bytes = trimmed.getBytes(StandardCharsets.UTF_8);
        List<RawRecord> records = new ArrayList<>();
        try {
            BufferedInputStream in = new BufferedInputStream(new ByteArrayInputStream(bytes));
            char delimiter = FormatSniffer.sniff(in, "row.csv").delimiter();
            new TextFeed(in, new CsvSplitter(records::add, delimiter)).pump();
            if (records.size() != 2) {
                return ParsedRow.failed("a corrected CSV row must be the header line followed by exactly one row");
            }
            RawRecord row = records.get(1);
            if (row.structuralProblem() != null) {
                return ParsedRow.failed(row.structuralProblem());
            }
            return CsvRowParser.forHeader(records.get(0), delimiter).parse(row.text());
        } catch (IOException e) {
            // reading from memory does not fail
            throw new UncheckedIOException(e);
        }
    }
}
