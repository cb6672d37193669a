package org.copydesk.review;

/** Why a decision was not recorded although the editor still holds the article. */
public enum DecisionRefusal {
    /** A rejection needs a reason. */
    REJECT_NEEDS_A_REASON("review.decision.rejectNeedsReason"),
    /** A send-back needs what has to change. */
    SEND_BACK_NEEDS_CHANGES("review.decision.sendBackNeedsChanges"),
    /** "Unreviewable" needs a reason. */
    UNREVIEWABLE_NEEDS_A_REASON("review.decision.unreviewableNeedsReason"),
    /** The notes are longer than the database keeps. */
    NOTES_TOO_LONG("review.decision.notesTooLong"),
    /** The article no longer exists. */
    ARTICLE_GONE("review.decision.articleGone"),
    /** A newer revision arrived while the editor read; the database kept the notes as a draft. */
    NEWER_REVISION("review.decision.newerRevision"),
    /** The database refused it by its rules; its words are the message. */
    BY_THE_DATABASE(null);

    private final String key;

    DecisionRefusal(String key) {
        this.key = key;
    }

    /** The refusal in words; none for {@link #BY_THE_DATABASE}, whose words are the database's. */
    Phrase phrase() {
        if (key == null) {
            throw new IllegalStateException("a refusal by the database carries its own words");
        }
        return Phrase.of(key);
    }
}
