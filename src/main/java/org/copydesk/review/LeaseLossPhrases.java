package org.copydesk.review;

import java.util.function.Function;
import org.copydesk.lease.LeaseLost;

/** Says why an editor no longer has an article, and that nothing they typed is lost. */
final class LeaseLossPhrases {

    private LeaseLossPhrases() {
    }

    /**
     * @param title       the article's title
     * @param displayName turns an editor id into the name people know (falls back to the id)
     */
    static Phrase explain(LeaseLost lost, String title, Function<String, String> displayName) {
        Object by = lost.byActor() == null ? Phrase.of("review.lease.someSupervisor") : displayName.apply(lost.byActor());
        Object holder = lost.currentOwner() == null ? null : displayName.apply(lost.currentOwner());
        Object reason = reason(lost.detail());
        Object holderOrAnother = holder == null ? Phrase.of("review.lease.anotherEditor") : holder;
        return switch (lost.reason()) {
            case EXPIRED -> holder == null ? Phrase.of("review.lease.lost.expired", title)
                    : Phrase.of("review.lease.lost.expiredNowWith", title, holder);
            case TAKEN -> Phrase.of("review.lease.lost.taken", title, holderOrAnother);
            case FORCE_RELEASED -> Phrase.of("review.lease.lost.forceReleased", title, by, reason);
            case REASSIGNED -> Phrase.of("review.lease.lost.reassigned", title, by, holderOrAnother, reason);
            case RELEASED -> Phrase.of("review.lease.lost.released", title);
            case GONE -> Phrase.of("review.lease.lost.gone", title);
        };
    }

    /** ": “the reason”" after what a supervisor did, or nothing when they gave none. */
    static Object reason(String detail) {
        return detail == null || detail.isBlank() ? "" : Phrase.of("review.lease.reason", detail);
    }
}
