package org.copydesk.review.imports;

/**
 * The characters of the row being cut out. Keeps at most {@link #MAX_CHARS} of them and only counts
 * the rest, so a file with one endless line cannot exhaust memory.
 */
final class RecordText {

    /**
     * Longest row kept whole: above the 16 MB a body may have, plus room for the other fields and
     * JSON escapes, and equal to Jackson's default limit for one string.
     */
    static final int MAX_CHARS = 20_000_000;

    private StringBuilder chars = new StringBuilder(256);
    private long length;

    void append(char c) {
        if (length < MAX_CHARS) {
            chars.append(c);
        }
        length++;
    }

    long length() {
        return length;
    }

    /** True when every character of the row was kept. */
    boolean complete() {
        return length == chars.length();
    }

    boolean isBlank() {
        if (length > chars.length()) {
            return false;
        }
        for (int i = 0; i < chars.length(); i++) {
            if (!Character.isWhitespace(chars.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The text without trailing whitespace. */
    String text() {
        int end = chars.length();
        while (end > 0 && length == chars.length() && Character.isWhitespace(chars.charAt(end - 1))) {
            end--;
        }
        return chars.substring(0, end);
    }

    void reset() {
        // A huge row leaves a huge buffer behind; do not keep it for the small rows after it.
        if (chars.capacity() > 1 << 20) {
            chars = new StringBuilder(256);
        } else {
            chars.setLength(0);
        }
        length = 0;
    }
}
