package org.copydesk.review.imports;

import java.util.function.Consumer;

/**
 * Cuts the decoded character stream of a file into rows, without parsing them, so that one broken
 * row cannot take the rows around it down with it. Knows the structure of its format only as far
 * as needed to find where a row ends (quotes, brackets, line ends).
 */
abstract class RecordSplitter {

    private final Consumer<RawRecord> sink;
    /** Physical line of the character being handled, 1-based; kept by {@link Utf8Feed}. */
    long line = 1;
    final RecordText text = new RecordText();
    private long recordLine;
    private long recordMalformedLine;
    private String recordMalformed;
    private long pendingMalformedLine;
    private String pendingMalformed;
    boolean inRecord;

    RecordSplitter(Consumer<RawRecord> sink) {
        this.sink = sink;
    }

    /** The next character of the file (line ends included). */
    abstract void accept(char c);

    /** End of the file. */
    abstract void end();

    /**
     * Bytes the file's encoding cannot read at this point ({@code what} says which, and how they are
     * shown); what stands in for them is passed to {@link #accept} next.
     */
    final void malformedInput(String what) {
        if (inRecord) {
            if (recordMalformedLine == 0) {
                recordMalformedLine = line;
                recordMalformed = what;
            }
        } else if (pendingMalformedLine == 0) {
            pendingMalformedLine = line;
            pendingMalformed = what;
        }
    }

    final void startRecord() {
        inRecord = true;
        recordLine = line;
        recordMalformedLine = pendingMalformedLine;
        recordMalformed = pendingMalformed;
        pendingMalformedLine = 0;
        pendingMalformed = null;
        text.reset();
    }

    final void emit(String structuralProblem) {
        String kept = text.text();
        // trailing whitespace is dropped from a complete row; a cut row keeps its full length so it reads as too long
        RawRecord r = new RawRecord(recordLine, kept, text.complete() ? kept.length() : text.length(), recordMalformedLine,
                recordMalformed, structuralProblem);
        inRecord = false;
        text.reset();
        sink.accept(r);
    }

    /** Drops the record in hand (a blank line). */
    final void discard() {
        inRecord = false;
        text.reset();
    }

    static boolean isJsonWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
