package org.copydesk.review.imports;

/**
 * One row as cut out of the file, before it is parsed.
 *
 * @param line           physical line the row starts on (1-based)
 * @param text           the row's characters, at most {@link RecordText#MAX_CHARS} of them
 * @param length         the row's full length in characters (more than {@code text} holds when it was too long)
 * @param malformedLine  the first line of this row holding bytes the file's encoding cannot read, or 0
 * @param malformed      which bytes those are and how the text shows them, or null
 * @param structuralProblem why the file's structure broke inside this row (e.g. it ends inside an object), or null
 */
record RawRecord(long line, String text, long length, long malformedLine, String malformed, String structuralProblem) {

    boolean tooLong() {
        return length > text.length();
    }
}
