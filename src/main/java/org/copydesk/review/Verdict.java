package org.copydesk.review;

import org.copydesk.db.schema.enums.DecisionVerdict;

/** The four decisions an editor can make. */
public enum Verdict {
    /** Finished: good to publish. */
    APPROVE(false, "Approve"),
    /** Finished: not to be published; needs a reason. */
    REJECT(true, "Reject"),
    /** Back to the queue after a back-off, for changes; needs notes. */
    SEND_BACK(true, "Send back"),
    /** Cannot be reviewed (garbled, wrong desk): goes to quarantine; needs a reason. */
    UNREVIEWABLE(true, "Unreviewable");

    private final boolean needsNotes;
    private final String label;

    Verdict(boolean needsNotes, String label) {
        this.needsNotes = needsNotes;
        this.label = label;
    }

    public boolean needsNotes() {
        return needsNotes;
    }

    public String label() {
        return label;
    }

    /** The code written to history and drafts. */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Verdict fromCode(String code) {
        return Verdict.valueOf(code.toUpperCase(java.util.Locale.ROOT));
    }

    DecisionVerdict toDb() {
        return DecisionVerdict.valueOf(code());
    }
}
