package org.copydesk.review.imports;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CodingErrorAction;
import java.util.Locale;

/**
 * Decides how to read a file: its encoding ({@link TextEncoding}), then its shape by its extension
 * when it has a known one (.json, .ndjson, .jsonl, .csv), else by its first significant character
 * ({@code [} a JSON array, <code>{</code> JSON lines, anything else CSV). A .json file is an array when
 * it starts with {@code [}, else JSON lines. For CSV, the delimiter is the most frequent of comma,
 * semicolon and tab on the header line.
 */
final class FormatSniffer {

    static final int PEEK_BYTES = 64 * 1024;

    /**
     * @param format   null for a file without text (empty or only blanks) or a refused one
     * @param encoding how to decode the file, or why it is refused
     */
    record Sniffed(ImportFormat format, char delimiter, TextEncoding.Detected encoding) {
    }

    private FormatSniffer() {
    }

    /** Peeks at the start of {@code in} and resets it, so reading starts at the first byte again. */
    static Sniffed sniff(BufferedInputStream in, String sourceName) throws IOException {
        in.mark(PEEK_BYTES + 1);
        byte[] head = in.readNBytes(PEEK_BYTES);
        in.reset();
        TextEncoding.Detected encoding = TextEncoding.ofHead(head, head.length);
        if (encoding.refusedFile()) {
            return new Sniffed(null, ',', encoding);
        }
        // the head may end inside a character, and may hold bytes the import marks row by row later
        CharBuffer chars = CharBuffer.allocate(head.length);
        encoding.charset().newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(head), chars, false);
        chars.flip();
        String text = chars.toString();
        int i = text.startsWith("\uFEFF") ? 1 : 0;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\r'
                || text.charAt(i) == '\n')) {
            i++;
        }
        if (i >= text.length()) {
            return new Sniffed(null, ',', encoding);
        }
        char first = text.charAt(i);
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
        char delimiter = format == ImportFormat.CSV ? delimiter(text, i, name.endsWith(".tsv")) : ',';
        return new Sniffed(format, delimiter, encoding);
    }

    private static char delimiter(String head, int start, boolean tsv) {
        if (tsv) {
            return '\t';
        }
        int commas = 0;
        int semicolons = 0;
        int tabs = 0;
        boolean quoted = false;
        for (int i = start; i < head.length(); i++) {
            char c = head.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '\n' || c == '\r')) {
                break;
            } else if (!quoted && c == ',') {
                commas++;
            } else if (!quoted && c == ';') {
                semicolons++;
            } else if (!quoted && c == '\t') {
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
