package org.copydesk.ui.editor;

import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Messages;

/** What the editor's window calls each decision, from the message bundle (review's Verdict stays free of UI words). */
final class VerdictWords {

    private VerdictWords() {
    }

    /** The button: "Approve", "Send back". */
    static String label(Verdict verdict) {
        return Messages.text(switch (verdict) {
            case APPROVE -> "editor.verdict.approve";
            case REJECT -> "editor.verdict.reject";
            case SEND_BACK -> "editor.verdict.sendBack";
            case UNREVIEWABLE -> "editor.verdict.unreviewable";
        });
    }

    /** The notice once decided: "Approved", "Sent back". */
    static String done(Verdict verdict) {
        return Messages.text(switch (verdict) {
            case APPROVE -> "editor.decision.approved";
            case REJECT -> "editor.decision.rejected";
            case SEND_BACK -> "editor.decision.sentBack";
            case UNREVIEWABLE -> "editor.decision.quarantined";
        });
    }
}
