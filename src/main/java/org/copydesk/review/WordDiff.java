package org.copydesk.review;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A diff of two texts as a reviewer reads it, as data a screen can render: runs of unchanged,
 * deleted and inserted text that, read in order, give the old text (without the insertions) or the
 * new text (without the deletions). The texts are compared sentence by sentence first; within a
 * changed sentence word by word, so a changed word is marked whole (words, runs of spaces and single
 * punctuation marks are the units) — unless most of its words changed in both versions: a rewritten
 * sentence is shown as the old one struck out and the new one added, since its few common words
 * ("a", "the") would otherwise interleave the two ("Late A winner stoppage-time sends header
 * sent…"). The diffs themselves are java-diff-utils' (Myers).
 */
public final class WordDiff {

    public enum Change { SAME, DELETED, INSERTED }

    /** One run of text and what happened to it. */
    public record Segment(Change change, String text) {
    }

    private static final Pattern UNITS = Pattern.compile("\\s+|[\\p{L}\\p{N}_'’-]+|.", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}].*", Pattern.DOTALL);
    /** Where a sentence ends, with the space after it: . ! ? (and closing quotes or brackets) before a space, or a line break. */
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?]+[\"'”’)\\]]*\\s+|\\n\\s*");

    private WordDiff() {
    }

    public static List<Segment> between(String oldText, String newText) {
        List<Segment> out = new ArrayList<>();
        // sentences that differ only in the space after them are the same sentence
        align(out, sentences(oldText == null ? "" : oldText), sentences(newText == null ? "" : newText),
                (a, b) -> a.strip().equals(b.strip()), WordDiff::changed);
        return out;
    }

    /**
     * Walks the diff of {@code before} and {@code after} by {@code alike}: each pair found alike is
     * compared word by word, each changed passage goes to {@code changed}.
     */
    private static void align(List<Segment> out, List<String> before, List<String> after, BiPredicate<String, String> alike,
                              Changed changed) {
        int i = 0;
        int j = 0;
        for (AbstractDelta<String> d : DiffUtils.diff(before, after, alike).getDeltas()) {
            for (; i < d.getSource().getPosition(); i++, j++) {
                compare(out, before.get(i), after.get(j));
            }
            changed.add(out, d.getSource().getLines(), d.getTarget().getLines());
            i += d.getSource().size();
            j += d.getTarget().size();
        }
        for (; i < before.size(); i++, j++) {
            compare(out, before.get(i), after.get(j));
        }
    }

    /** What becomes of a changed passage: {@code removed} sentences of the old text, {@code added} of the new. */
    private interface Changed {
        void add(List<Segment> out, List<String> removed, List<String> added);
    }

    /**
     * A changed passage: the sentences of it that are still alike (most of their words kept) are
     * compared word by word; the others were rewritten, removed or added, and are shown whole.
     */
    private static void changed(List<Segment> out, List<String> removed, List<String> added) {
        align(out, removed, added, (a, b) -> !rewritten(a, b), (o, r, a) -> whole(o, String.join("", r), String.join("", a)));
    }

    /** Two sentences alike: word by word (the same text is one unchanged run); rewritten ones whole. */
    private static void compare(List<Segment> out, String old, String now) {
        if (old.equals(now)) {
            add(out, Change.SAME, List.of(old));
        } else if (rewritten(old, now)) {
            whole(out, old, now);
        } else {
            words(old, now).forEach(s -> add(out, s.change(), List.of(s.text())));
        }
    }

    private static List<Segment> words(String old, String now) {
        List<String> before = units(old);
        List<String> after = units(now);
        List<Segment> words = new ArrayList<>();
        int at = 0;
        for (AbstractDelta<String> d : DiffUtils.diff(before, after).getDeltas()) {
            int start = d.getSource().getPosition();
            add(words, Change.SAME, before.subList(at, start));
            add(words, Change.DELETED, d.getSource().getLines());
            add(words, Change.INSERTED, d.getTarget().getLines());
            at = start + d.getSource().size();
        }
        add(words, Change.SAME, before.subList(at, before.size()));
        return words;
    }

    /** The old text out, the new one in, whole; the space both end with stays unchanged. */
    private static void whole(List<Segment> out, String old, String now) {
        String oldSpace = trailingSpace(old);
        String space = oldSpace.equals(trailingSpace(now)) ? oldSpace : "";
        add(out, Change.DELETED, List.of(old.substring(0, old.length() - space.length())));
        add(out, Change.INSERTED, List.of(now.substring(0, now.length() - space.length())));
        add(out, Change.SAME, List.of(space));
    }

    /** True when fewer than half the words of each version are kept (and the two are not empty). */
    private static boolean rewritten(String old, String now) {
        long oldWords = countWords(units(old));
        long newWords = countWords(units(now));
        if (oldWords == 0 || newWords == 0) {
            return oldWords != newWords;
        }
        long kept = words(old, now).stream().filter(s -> s.change() == Change.SAME).mapToLong(s -> countWords(units(s.text()))).sum();
        return kept * 2 < oldWords && kept * 2 < newWords;
    }

    private static long countWords(List<String> units) {
        return units.stream().filter(u -> WORD.matcher(u).matches()).count();
    }

    private static String trailingSpace(String text) {
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(end);
    }

    /** The new text: what a "clean text" toggle shows. */
    public static String newText(List<Segment> segments) {
        StringBuilder s = new StringBuilder();
        segments.stream().filter(g -> g.change() != Change.DELETED).forEach(g -> s.append(g.text()));
        return s.toString();
    }

    /** The old text, from the same segments. */
    public static String oldText(List<Segment> segments) {
        StringBuilder s = new StringBuilder();
        segments.stream().filter(g -> g.change() != Change.INSERTED).forEach(g -> s.append(g.text()));
        return s.toString();
    }

    private static void add(List<Segment> out, Change change, List<String> units) {
        if (units.isEmpty()) {
            return;
        }
        String text = String.join("", units);
        if (text.isEmpty()) {
            return;
        }
        if (!out.isEmpty() && out.get(out.size() - 1).change() == change) {
            text = out.remove(out.size() - 1).text() + text; // one run per change, however the deltas fall
        }
        out.add(new Segment(change, text));
    }

    /** The text cut after each sentence's end (see {@link #SENTENCE_END}); the pieces joined give the text back. */
    private static List<String> sentences(String text) {
        List<String> sentences = new ArrayList<>();
        Matcher m = SENTENCE_END.matcher(text);
        int start = 0;
        while (m.find()) {
            sentences.add(text.substring(start, m.end()));
            start = m.end();
        }
        if (start < text.length()) {
            sentences.add(text.substring(start));
        }
        return sentences;
    }

    private static List<String> units(String text) {
        List<String> units = new ArrayList<>();
        Matcher m = UNITS.matcher(text);
        while (m.find()) {
            units.add(m.group());
        }
        return units;
    }
}
