package org.copydesk.review.imports;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads CSV rows against the header row. Each row is handed to commons-csv on its own (the
 * {@link CsvSplitter} found where it ends), so a malformed row cannot stop the parser for the rest.
 */
final class CsvRowParser {

    private final CSVFormat format;
    private final String headerText;
    private final List<String> columns;
    private final String headerProblem;

    private CsvRowParser(CSVFormat format, String headerText, List<String> columns, String headerProblem) {
        this.format = format;
        this.headerText = headerText;
        this.columns = columns;
        this.headerProblem = headerProblem;
    }

    static CSVFormat format(char delimiter) {
        return CSVFormat.RFC4180.builder().setDelimiter(delimiter).setIgnoreEmptyLines(false).get();
    }

    /** Reads the header row; a header that cannot be used makes every row fail with the header's problem. */
    static CsvRowParser forHeader(RawRecord header, char delimiter) {
        CSVFormat format = format(delimiter);
        String problem = null;
        List<String> columns = List.of();
        if (header.structuralProblem() != null) {
            problem = header.structuralProblem();
        } else if (header.malformedLine() != 0) {
            problem = "it holds " + header.malformed();
        } else if (header.tooLong()) {
            problem = "it is far too long";
        } else {
            List<String> cells = cells(format, header.text());
            if (cells == null) {
                problem = "it is not valid CSV";
            } else {
                columns = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (String cell : cells) {
                    String name = cell.strip().toLowerCase(Locale.ROOT);
                    if (!name.isEmpty() && !seen.add(name)) {
                        problem = "it names the column \"" + ImportText.shorten(name, 60) + "\" twice";
                    }
                    columns.add(name);
                }
                if (problem == null) {
                    problem = missingColumns(columns);
                }
            }
        }
        if (problem != null) {
            problem = "the header row (line " + header.line() + ") cannot be used: " + problem;
        }
        return new CsvRowParser(format, header.text(), columns, problem);
    }

    /** Null when every column an article needs is there, else which are not (said once for the file, not on every row). */
    private static String missingColumns(List<String> columns) {
        List<String> missing = ArticleRowValidator.REQUIRED.stream().filter(c -> !columns.contains(c)).toList();
        if (missing.isEmpty()) {
            return null;
        }
        String named = String.join(", ", columns.stream().filter(c -> !c.isEmpty()).map(c -> ImportText.visible(c, 40)).toList());
        return (missing.size() == 1 ? "it has no column \"" + missing.get(0) + "\"" : "it has no columns \""
                + String.join("\", \"", missing) + "\"") + " (its columns: " + (named.isEmpty() ? "none" : named)
                + "); every article needs " + String.join(", ", ArticleRowValidator.REQUIRED);
    }

    /** Why the header row cannot be used (then no row can be read), or null. */
    String problem() {
        return headerProblem;
    }

    /** The header line, put in front of a bad row's text in the quarantine so the entry reads (and requeues) on its own. */
    String headerText() {
        return headerText;
    }

    ParsedRow parse(String text) {
        if (headerProblem != null) {
            return ParsedRow.failed(headerProblem);
        }
        List<String> cells = cells(format, text);
        if (cells == null) {
            return ParsedRow.failed("not valid CSV: a quoted field must be closed by \" right before a "
                    + "delimiter or the line end, and a \" inside it written as \"\"");
        }
        if (cells.size() != columns.size()) {
            boolean onlyEmptyExtra = cells.size() > columns.size()
                    && cells.subList(columns.size(), cells.size()).stream().allMatch(String::isEmpty);
            if (!onlyEmptyExtra) {
                return ParsedRow.failed("the row has " + cells.size() + " fields but the header has " + columns.size()
                        + " (an unquoted delimiter or line break inside a value?)");
            }
        }
        Map<String, FieldValue> fields = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).isEmpty()) {
                fields.put(columns.get(i), FieldValue.text(cells.get(i)));
            }
        }
        return ParsedRow.of(fields);
    }

    /** The row's cells, or null when it is not valid CSV. */
    private static List<String> cells(CSVFormat format, String text) {
        try (CSVParser parser = CSVParser.parse(text, format)) {
            List<CSVRecord> records = parser.getRecords();
            if (records.size() != 1) {
                return null;
            }
            return records.get(0).toList();
        } catch (IOException | RuntimeException e) {
            // commons-csv reports malformed quoting as IOException or UncheckedIOException
            return null;
        }
    }
}
