package org.copydesk.review.imports;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.util.Locale;

/**
 * Decides how to read a file: by its extension when it has a known one (.json, .ndjson, .jsonl,
 * .csv), else by its first significant character ({@code [} a JSON array, <code>{</code> JSON lines,
 * anything else CSV). A .json file is an array when it starts with {@code [}, else JSON lines. For
 * CSV, the delimiter is the most frequent of comma, semicolon and tab on the header line.
 */
final class FormatSniffer {

    static final int PEEK_BYTES = 64 * 1024;

    /** @param format null for an empty file; {@code utf16} when the file starts with a UTF-16 or UTF-32 byte order mark */
    record Sniffed(ImportFormat format, char delimiter, boolean utf16) {
    }

    private FormatSniffer() {
    }

    /** Peeks at the start of {@code in} and resets it, so reading starts at the first byte again. */
    static Sniffed sniff(BufferedInputStream in, String sourceName) throws IOException {
        in.mark(PEEK_BYTES + 1);
        byte[] head = in.readNBytes(PEEK_BYTES);
        in.reset();
        int n = head.length;
        if (n >= 2 && ((head[0] & 0xFF) == 0xFE && (head[1] & 0xFF) == 0xFF
                || (head[0] & 0xFF) == 0xFF && (head[1] & 0xFF) == 0xFE)
                || n >= 4 && head[0] == 0 && head[1] == 0 && (head[2] & 0xFF) == 0xFE && (head[3] & 0xFF) == 0xFF) {
            return new Sniffed(null, ',', true);
        }
        int i = 0;
        if (n >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB && (head[2] & 0xFF) == 0xBF) {
            i = 3;
        }
        while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
            i++;
        }
        if (i >= n) {
            return new Sniffed(null, ',', false);
        }
        byte first = head[i];
        String name = sourceName == null ? "" : sourceName.toLowerCase(Locale.ROOT);
        ImportFormat format;
        if (name.endsWith(".csv") || name.endsWith(".tsv") || name.endsWith(".txt") && first != '[' && first != '{') {
            format = ImportFormat.CSV;
        } else if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) {
            format = ImportFormat.JSON_LINES;
        } else if (name.endsWith(".json")) {
            format = first == '[' ? ImportFormat.JSON_ARRAY : ImportFormat.JSON_LINES;
        } else {
            format = first == '[' ? ImportFormat.JSON_ARRAY : first == '{' ? ImportFormat.JSON_LINES : ImportFormat.CSV;
        }
        char delimiter = format == ImportFormat.CSV ? delimiter(head, i, n, name.endsWith(".tsv")) : ',';
        return new Sniffed(format, delimiter, false);
    }

    private static char delimiter(byte[] head, int start, int n, boolean tsv) {
        if (tsv) {
            return '\t';
        }
        int commas = 0;
        int semicolons = 0;
        int tabs = 0;
        boolean quoted = false;
        for (int i = start; i < n; i++) {
            byte b = head[i];
            if (b == '"') {
                quoted = !quoted;
            } else if (!quoted && (b == '\n' || b == '\r')) {
                break;
            } else if (!quoted && b == ',') {
                commas++;
            } else if (!quoted && b == ';') {
                semicolons++;
            } else if (!quoted && b == '\t') {
                tabs++;
            }
        }
        if (semicolons > commas && semicolons >= tabs) {
            return ';';
        }
        if (tabs > commas && tabs > semicolons) {
            return '\t';
        }
        return ',';
    }
}
