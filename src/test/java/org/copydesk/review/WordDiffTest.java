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
    void aRewrittenSentenceIsShownStruckOutAndReplacedWholeNotInterleaved() {
        // seen in a working day: word by word, a rewritten lede read "Late A winner stoppage-time sends header sent…"
        String before = "A header sent United through in the last minute. The coach praised the defence.\n\nMore follows.";
        String after = "Late stoppage-time winner sends United into the final. The coach praised the defence.\n\nMore follows.";

        List<Segment> d = WordDiff.between(before, after);

        assertThat(d).containsExactly(
                new Segment(Change.DELETED, "A header sent United through in the last minute."),
                new Segment(Change.INSERTED, "Late stoppage-time winner sends United into the final."),
                new Segment(Change.SAME, " The coach praised the defence.\n\nMore follows."));
        assertThat(WordDiff.oldText(d)).isEqualTo(before);
        assertThat(WordDiff.newText(d)).isEqualTo(after);
    }

    @Test
    void aSentenceThatKeepsMostOfItsWordsIsMarkedWordByWordAmongRewrittenOnes() {
        String before = "Rain stopped play. The council voted 7-2 on Tuesday. Nobody came.";
        String after = "Sunshine greeted a full house today. The council voted 8-1 on Tuesday. Nobody came.";

        List<Segment> d = WordDiff.between(before, after);

        assertThat(d).containsExactly(
                new Segment(Change.DELETED, "Rain stopped play."),
                new Segment(Change.INSERTED, "Sunshine greeted a full house today."),
                new Segment(Change.SAME, " The council voted "),
                new Segment(Change.DELETED, "7-2"), new Segment(Change.INSERTED, "8-1"),
                new Segment(Change.SAME, " on Tuesday. Nobody came."));
        assertThat(WordDiff.newText(d)).isEqualTo(after);
    }

    @Test
    void aRewrittenSentenceAmongRemovedOnesIsShownWholeEvenWhereTheSentencesDoNotPairUp() {
        // seen in a working day: a revision that rewrote one sentence and cut others read
        // "A The spokesperson club declined confirmed to on comment Friday further that until the review captain …"
        String before = "Injury blow for captain. A spokesperson declined to comment further until the review is complete.\n\n"
                + "Officials said the decision followed months of consultation. A spokesperson declined to comment.\n\n"
                + "Local businesses said they had not been told.";
        String after = "Injury blow for captain. The club confirmed on Friday that the captain will miss the final.\n\n"
                + "Officials said the decision followed months of consultation.";

        List<Segment> d = WordDiff.between(before, after);

        assertThat(d).startsWith(new Segment(Change.SAME, "Injury blow for captain. "),
                new Segment(Change.DELETED, "A spokesperson declined to comment further until the review is complete."),
                new Segment(Change.INSERTED, "The club confirmed on Friday that the captain will miss the final."),
                new Segment(Change.SAME, "\n\nOfficials said the decision followed months of consultation."));
        assertThat(d.stream().filter(s -> s.change() == Change.INSERTED)).as("nothing interleaved").hasSize(1);
        assertThat(WordDiff.oldText(d)).isEqualTo(before);
        assertThat(WordDiff.newText(d)).isEqualTo(after);
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
