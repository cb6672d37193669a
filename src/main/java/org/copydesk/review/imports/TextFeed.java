package org.copydesk.review.imports;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Decodes a byte stream (UTF-8 or UTF-16, as {@link TextEncoding} found) and hands it, character by
 * character, to a {@link RecordSplitter}. The decoder REPORTs bad bytes instead of silently
 * replacing them, so the splitter can mark the one row they are in; in their place the row shows
 * what the bytes most likely meant (for UTF-8: the letters Windows-1252 reads in them, so "é" saved
 * by an older program stays "é"; for UTF-16: their values), never a replacement character. Keeps the
 * line count (LF, CRLF and a lone CR each end a line) and drops a leading byte order mark.
 */
final class TextFeed {

    /** Thrown by a record consumer to stop reading (cancellation); carries no stack trace. */
    static final class StopReading extends RuntimeException {
        StopReading() {
            super(null, null, false, false);
        }
    }

    private final InputStream in;
    private final RecordSplitter splitter;
    private final Charset charset;
    private long bytesRead;
    private boolean previousWasCr;
    private boolean first = true;

    TextFeed(InputStream in, RecordSplitter splitter) {
        this(in, splitter, StandardCharsets.UTF_8);
    }

    TextFeed(InputStream in, RecordSplitter splitter, Charset charset) {
        this.in = in;
        this.splitter = splitter;
        this.charset = charset;
    }

    long bytesRead() {
        return bytesRead;
    }

    Charset charset() {
        return charset;
    }

    /** Reads to the end of the stream (or until a consumer throws {@link StopReading}, which propagates). */
    void pump() throws IOException {
        CharsetDecoder decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        byte[] bytes = new byte[64 * 1024];
        ByteBuffer input = ByteBuffer.allocate(bytes.length + 8);
        CharBuffer output = CharBuffer.allocate(bytes.length);
        boolean endOfInput = false;
        while (!endOfInput) {
            int n = in.read(bytes, 0, Math.min(bytes.length, input.remaining()));
            if (n < 0) {
                endOfInput = true;
            } else {
                bytesRead += n;
                input.put(bytes, 0, n);
            }
            input.flip();
            while (true) {
                CoderResult result = decoder.decode(input, output, endOfInput);
                drain(output);
                if (result.isUnderflow()) {
                    break;
                }
                if (result.isError()) {
                    malformed(input, result.length());
                }
            }
            if (endOfInput) {
                decoder.flush(output);
                drain(output);
            }
            input.compact();
        }
        splitter.end();
    }

    /** Bytes the charset cannot read: marks the row, then passes on what they most likely meant. */
    private void malformed(ByteBuffer input, int length) {
        StringBuilder values = new StringBuilder();
        StringBuilder shown = new StringBuilder();
        boolean utf8 = StandardCharsets.UTF_8.equals(charset);
        for (int i = 0; i < length; i++) {
            int b = input.get() & 0xFF;
            values.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%02X", b));
            shown.append(utf8 ? String.valueOf(WindowsLatin.of(b)) : String.format(Locale.ROOT, "\\x%02X", b));
        }
        String which = (length == 1 ? "the byte " : "the bytes ") + values;
        splitter.malformedInput(which + (length == 1 ? ", which is not " : ", which are not ")
                + (utf8 ? "UTF-8 (shown as Windows-1252 reads " + (length == 1 ? "it" : "them") + ": \"" + shown + "\")"
                        : charset.name() + " text (shown as " + shown + ")"));
        for (int i = 0; i < shown.length(); i++) {
            handle(shown.charAt(i));
        }
    }

    private void drain(CharBuffer output) {
        output.flip();
        while (output.hasRemaining()) {
            handle(output.get());
        }
        output.clear();
    }

    private void handle(char c) {
        if (first) {
            first = false;
            if (c == '\uFEFF') {
                return;
            }
        }
        if (c == '\n' && previousWasCr) {
            // second half of a CRLF: the line was already counted at the CR
            previousWasCr = false;
            splitter.accept(c);
            return;
        }
        splitter.accept(c);
        if (c == '\n' || c == '\r') {
            splitter.line++;
        }
        previousWasCr = c == '\r';
    }
}
