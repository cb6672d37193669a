package org.copydesk.review;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A word-level diff of two texts, as data a screen can render: runs of unchanged, deleted and
 * inserted text that, read in order, give the old text (without the insertions) or the new text
 * (without the deletions). Words, runs of spaces and single punctuation marks are the units, so a
 * changed word is marked whole. The diff itself is java-diff-utils' (Myers).
 */
public final class WordDiff {

    public enum Change { SAME, DELETED, INSERTED }

    /** One run of text and what happened to it. */
    public record Segment(Change change, String text) {
    }

    private static final Pattern UNITS = Pattern.compile("\\s+|[\\p{L}\\p{N}_'’-]+|.", Pattern.DOTALL);

    private WordDiff() {
    }

    public static List<Segment> between(String oldText, String newText) {
        List<String> before = units(oldText == null ? "" : oldText);
        List<String> after = units(newText == null ? "" : newText);
        List<Segment> out = new ArrayList<>();
        int at = 0;
        for (AbstractDelta<String> d : DiffUtils.diff(before, after).getDeltas()) {
            int start = d.getSource().getPosition();
            add(out, Change.SAME, before.subList(at, start));
            add(out, Change.DELETED, d.getSource().getLines());
            add(out, Change.INSERTED, d.getTarget().getLines());
            at = start + d.getSource().size();
        }
        add(out, Change.SAME, before.subList(at, before.size()));
        return out;
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

    private static List<String> units(String text) {
        List<String> units = new ArrayList<>();
        Matcher m = UNITS.matcher(text);
        while (m.find()) {
            units.add(m.group());
        }
        return units;
    }
}
