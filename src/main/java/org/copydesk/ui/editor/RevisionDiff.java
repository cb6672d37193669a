package org.copydesk.ui.editor;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.copydesk.review.ArticleRevision;
import org.copydesk.review.WordDiff;

/**
 * What the reader marks for one held article: the word diff from an older revision to
 * the one the editor now reads, and the words above it — the notes that asked for the changes, who
 * sent the article back and when, or that the editor took a newer version.
 *
 * @param heading    one line saying which revisions are compared and why
 * @param notes      the notes that asked for the changes (empty when there are none to show)
 * @param bylineFrom the byline before, when it changed (else null)
 */
record RevisionDiff(long articleId, int fromRevision, int toRevision, String heading, String notes,
                    List<WordDiff.Segment> title, List<WordDiff.Segment> body, String bylineFrom, String bylineTo) {

    RevisionDiff {
        title = List.copyOf(title);
        body = List.copyOf(body);
        notes = notes == null ? "" : notes;
    }

    /** The diff from {@code from} to {@code to}; the texts are compared word by word (java-diff-utils). */
    static RevisionDiff between(long articleId, ArticleRevision from, ArticleRevision to, String heading, String notes) {
        boolean bylineChanged = !Objects.equals(blankIsNull(from.byline()), blankIsNull(to.byline()));
        return new RevisionDiff(articleId, from.revision(), to.revision(), heading, notes,
                WordDiff.between(from.title(), to.title()), WordDiff.between(from.body(), to.body()),
                bylineChanged ? from.byline() : null, bylineChanged ? to.byline() : null);
    }

    boolean titleChanged() {
        return title.stream().anyMatch(s -> s.change() != WordDiff.Change.SAME);
    }

    boolean bylineChanged() {
        return bylineFrom != null || bylineTo != null;
    }

    /** Words added to and removed from the title and body, for the summary beside the toggle. */
    int wordsAdded() {
        return words(WordDiff.Change.INSERTED);
    }

    int wordsRemoved() {
        return words(WordDiff.Change.DELETED);
    }

    private int words(WordDiff.Change change) {
        return (int) Stream.concat(title.stream(), body.stream())
                .filter(s -> s.change() == change)
                .mapToLong(s -> s.text().trim().isEmpty() ? 0 : s.text().trim().split("\\s+").length)
                .sum();
    }

    private static String blankIsNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
