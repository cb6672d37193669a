package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.copydesk.review.WordDiff.Change;
import org.copydesk.review.WordDiff.Segment;
import org.junit.jupiter.api.Test;

class WordDiffTest {

    @Test
    void aChangedWordIsMarkedWholeAndPunctuationOnItsOwn() {
        List<Segment> d = WordDiff.between("The mayor said, \"no\".", "The mayor's office said: \"yes\".");
        assertThat(d).containsExactly(new Segment(Change.SAME, "The "), new Segment(Change.DELETED, "mayor"),
                new Segment(Change.INSERTED, "mayor's"), new Segment(Change.SAME, " "), new Segment(Change.INSERTED, "office "),
                new Segment(Change.SAME, "said"),
                new Segment(Change.DELETED, ","), new Segment(Change.INSERTED, ":"), new Segment(Change.SAME, " \""),
                new Segment(Change.DELETED, "no"), new Segment(Change.INSERTED, "yes"), new Segment(Change.SAME, "\"."));
    }

    @Test
    void bothTextsComeBackFromTheSegmentsWithLineBreaksAndEmptyTexts() {
        String before = "Para one.\n\nPara two stays.\n";
        String after = "Para one, revised.\n\nPara two stays.\nPara three.";
        List<Segment> d = WordDiff.between(before, after);
        assertThat(WordDiff.oldText(d)).isEqualTo(before);
        assertThat(WordDiff.newText(d)).isEqualTo(after);
        assertThat(WordDiff.between("", "New")).containsExactly(new Segment(Change.INSERTED, "New"));
        assertThat(WordDiff.between("Old", null)).containsExactly(new Segment(Change.DELETED, "Old"));
        assertThat(WordDiff.between("Same", "Same")).containsExactly(new Segment(Change.SAME, "Same"));
    }
}
