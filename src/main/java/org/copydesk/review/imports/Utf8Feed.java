package org.copydesk.review.imports;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes a byte stream as UTF-8 and hands it, character by character, to a {@link RecordSplitter}.
 * The decoder REPORTs bad bytes instead of silently replacing them, so the splitter can mark the
 * one row they are in; a U+FFFD stands in for them so the row can still be shown. Keeps the line
 * count (LF, CRLF and a lone CR each end a line) and drops a leading byte order mark.
 */
final class Utf8Feed {

    /** Thrown by a record consumer to stop reading (cancellation); carries no stack trace. */
    static final class StopReading extends RuntimeException {
        StopReading() {
            super(null, null, false, false);
        }
    }

    private final InputStream in;
    private final RecordSplitter splitter;
    private long bytesRead;
    private boolean previousWasCr;
    private boolean first = true;

    Utf8Feed(InputStream in, RecordSplitter splitter) {
        this.in = in;
        this.splitter = splitter;
    }

    long bytesRead() {
        return bytesRead;
    }

    /** Reads to the end of the stream (or until a consumer throws {@link StopReading}, which propagates). */
    void pump() throws IOException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
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
                    input.position(input.position() + result.length());
                    splitter.malformedInput();
                    handle('\uFFFD');
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
