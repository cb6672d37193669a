package org.copydesk.review.outcomes;

/**
 * What a receiver answered, made safe to store and to show: one line of plain text. A receiver is
 * another system, and its answer reaches a supervisor's terminal (the relay prints it), the
 * dashboard and the history; control characters (terminal escapes, line breaks that would forge a
 * second log line) and the invisible characters that reorder text (bidirectional overrides) become
 * spaces, and the text is cut to a bound.
 */
final class ReceiverText {

    private ReceiverText() {
    }

    /** {@code text} as one line of at most {@code max} characters (code points), ending in "..." when cut. */
    static String plain(String text, int max) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.appendCodePoint(shown(c) ? c : ' '));
        String line = out.toString().replaceAll(" {2,}", " ").strip();
        if (line.codePointCount(0, line.length()) <= max) {
            return line;
        }
        return line.substring(0, line.offsetByCodePoints(0, Math.max(0, max - 3))) + "...";
    }

    private static boolean shown(int c) {
        if (Character.isISOControl(c)) {
            return false;
        }
        // bidirectional embeddings, overrides and isolates; marks; line and paragraph separators
        return !(c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069 || c == 0x200E || c == 0x200F
                || c == 0x061C || c == 0x2028 || c == 0x2029);
    }
}
