package org.copydesk.review.imports;

/** Text helpers for messages and the quarantine table's column sizes. */
final class ImportText {

    private ImportText() {
    }

    /** At most {@code max} characters, with an ellipsis when cut; never splits a surrogate pair. */
    static String shorten(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int end = max - 1;
        if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }

    /** Keeps the end (a file name is at the end of a path). */
    static String shortenFromStart(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int start = s.length() - (max - 1);
        if (Character.isLowSurrogate(s.charAt(start))) {
            start++;
        }
        return "…" + s.substring(start);
    }

    /** The raw text of a bad row for the quarantine table, cut to {@code limit} characters with a note saying so. */
    static String rawForQuarantine(String text, long fullLength, int limit) {
        if (fullLength <= limit && text.length() == fullLength) {
            return text;
        }
        String kept = shorten(text, limit);
        kept = kept.endsWith("…") ? kept.substring(0, kept.length() - 1) : kept;
        return kept + "\n[… truncated by the import: the row is " + fullLength + " characters long, the first "
                + kept.length() + " are kept]";
    }

    /** For messages: control characters shown as \\uXXXX so a reason stays on one readable line. */
    static String visible(String s, int max) {
        StringBuilder b = new StringBuilder();
        String cut = shorten(s, max);
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c) && !validPairAt(cut, i)) {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean validPairAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
