package org.copydesk.review;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import java.util.ArrayList;
import java.util.List;
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
        List<String> before = sentences(oldText == null ? "" : oldText);
        List<String> after = sentences(newText == null ? "" : newText);
        List<Segment> out = new ArrayList<>();
        int at = 0;
        for (AbstractDelta<String> d : DiffUtils.diff(before, after).getDeltas()) {
            int start = d.getSource().getPosition();
            add(out, Change.SAME, before.subList(at, start));
            changed(out, d.getSource().getLines(), d.getTarget().getLines());
            at = start + d.getSource().size();
        }
        add(out, Change.SAME, before.subList(at, before.size()));
        return out;
    }

    /** Sentences changed one for one are compared pair by pair; otherwise the changed passages as a whole. */
    private static void changed(List<Segment> out, List<String> removed, List<String> added) {
        if (removed.size() == added.size()) {
            for (int i = 0; i < removed.size(); i++) {
                compare(out, removed.get(i), added.get(i));
            }
        } else {
            compare(out, String.join("", removed), String.join("", added));
        }
    }

    private static void compare(List<Segment> out, String old, String now) {
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
        if (!rewritten(words, before, after)) {
            words.forEach(s -> add(out, s.change(), List.of(s.text())));
            return;
        }
        // the whole sentence out, the whole new one in; the space both end with stays unchanged
        String oldSpace = trailingSpace(old);
        String space = oldSpace.equals(trailingSpace(now)) ? oldSpace : "";
        add(out, Change.DELETED, List.of(old.substring(0, old.length() - space.length())));
        add(out, Change.INSERTED, List.of(now.substring(0, now.length() - space.length())));
        add(out, Change.SAME, List.of(space));
    }

    /** True when fewer than half the words of each version are kept. */
    private static boolean rewritten(List<Segment> words, List<String> before, List<String> after) {
        long kept = words.stream().filter(s -> s.change() == Change.SAME).mapToLong(s -> countWords(units(s.text()))).sum();
        return kept * 2 < countWords(before) && kept * 2 < countWords(after);
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
