package org.copydesk.review;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.copydesk.lease.LostReason;

/**
 * What a row of the article history ({@code lease_event.action}) says happened. The database's
 * operations write these rows and Java reads them (the lost-lease diagnosis, the audit, the
 * statistics): this enum is the contract between the two languages, in one place.
 * {@code OperationsCatalogTest} checks it against every action the operations' texts on the
 * server can write, and against every row the contract suites made them write.
 */
public enum HistoryAction {
    CLAIM(LostReason.TAKEN),
    REFRESH,
    RENEW,
    RELEASE(LostReason.RELEASED),
    EXPIRE(LostReason.EXPIRED),
    COMPLETE(LostReason.RELEASED),
    FORCE_RELEASE(LostReason.FORCE_RELEASED),
    REASSIGN(LostReason.REASSIGNED),
    EXTEND,
    APPROVE,
    REJECT,
    SEND_BACK,
    UNREVIEWABLE,
    QUARANTINE,
    REQUEUE,
    IMPORT,
    REVISION,
    RELAY_FAILED,
    RELAY_RETRY,
    TO_FRONT,
    HOLD,
    RELEASE_HOLD,
    LET_AGAIN,
    NOTES_HANDED_OVER,
    /** An article moved between stages of its desk's chain (a decision, a supervisor, a stage removed). */
    STAGE,
    /** A desk's chain changed (resource 'desk'): a stage added, changed, removed, reordered, its takers. */
    STAGES,
    /** A supervisor set, moved or cleared the article's due time (the old and the new one in the detail). */
    DUE;

    private static final Map<String, HistoryAction> BY_CODE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(HistoryAction::code, Function.identity()));

    private final LostReason endsLeaseAs;

    HistoryAction() {
        this(null);
    }

    HistoryAction(LostReason endsLeaseAs) {
        this.endsLeaseAs = endsLeaseAs;
    }

    /** As the database writes it: the name in lower case. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * When a row with this action names a lease as its old one ({@code old_token}), the lease ended
     * here, and its holder is told this reason. Empty for actions that keep or do not touch a lease.
     * (A claim names the token the row had before it; on a row freed earlier that lease's own end
     * comes first in the history.)
     */
    public Optional<LostReason> endsLeaseAs() {
        return Optional.ofNullable(endsLeaseAs);
    }

    /** The action for a code the database wrote; a code this version does not know is a bug and throws. */
    public static HistoryAction of(String code) {
        HistoryAction action = BY_CODE.get(code);
        if (action == null) {
            throw new IllegalStateException("The history holds an action this version does not know: " + code);
        }
        return action;
    }
}
