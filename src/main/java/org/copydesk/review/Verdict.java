package org.copydesk.review;

import java.util.Locale;
import org.copydesk.db.schema.enums.DecisionVerdict;

/** The four decisions an editor can make. */
public enum Verdict {
    /** Finished: good to publish. */
    APPROVE(false, "review.verdict.approve"),
    /** Finished: not to be published; needs a reason. */
    REJECT(true, "review.verdict.reject"),
    /** Back to the queue after a back-off, for changes; needs notes. */
    SEND_BACK(true, "review.verdict.sendBack"),
    /** Cannot be reviewed (garbled, wrong desk): goes to quarantine; needs a reason. */
    UNREVIEWABLE(true, "review.verdict.unreviewable");

    private final boolean needsNotes;
    private final String labelKey;

    Verdict(boolean needsNotes, String labelKey) {
        this.needsNotes = needsNotes;
        this.labelKey = labelKey;
    }

    public boolean needsNotes() {
        return needsNotes;
    }

    /** The verdict's name for people ("Send back"). */
    public String label() {
        return Phrase.of(labelKey).text();
    }

    /** The code written to history and drafts. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Verdict fromCode(String code) {
        return Verdict.valueOf(code.toUpperCase(Locale.ROOT));
    }

    DecisionVerdict toDb() {
        return DecisionVerdict.valueOf(code());
    }
}
