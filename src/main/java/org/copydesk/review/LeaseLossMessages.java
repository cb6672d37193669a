package org.copydesk.review;

import java.util.function.Function;
import org.copydesk.lease.LeaseLost;

/** Says in plain words why an editor no longer has an article, and that nothing they typed is lost. */
public final class LeaseLossMessages {

    private static final String KEPT = " Your notes are kept as a draft.";

    private LeaseLossMessages() {
    }

    /**
     * @param title       the article's title
     * @param displayName turns an editor id into the name people know (falls back to the id)
     */
    public static String explain(LeaseLost lost, String title, Function<String, String> displayName) {
        String t = "\u201c" + title + "\u201d";
        String by = lost.byActor() == null ? null : displayName.apply(lost.byActor());
        String holder = lost.currentOwner() == null ? null : displayName.apply(lost.currentOwner());
        String reason = lost.detail() == null || lost.detail().isBlank() ? "" : ": \u201c" + lost.detail() + "\u201d";
        return switch (lost.reason()) {
            case EXPIRED -> "Your time on " + t + " ran out" + (holder == null ? " and it went back to the queue." : "; "
                    + holder + " is reviewing it now.") + KEPT;
            case TAKEN -> t + " is now with " + (holder == null ? "another editor" : holder)
                    + ": your lease on it had run out." + KEPT;
            case FORCE_RELEASED -> (by == null ? "A supervisor" : by) + " took " + t + " back" + reason + "." + KEPT;
            case REASSIGNED -> (by == null ? "A supervisor" : by) + " gave " + t + " to "
                    + (holder == null ? "another editor" : holder) + reason + "." + KEPT;
            case RELEASED -> t + " was already released or decided, perhaps from another Copydesk window." + KEPT;
            case GONE -> t + " is no longer in the review queue." + KEPT;
        };
    }
}
