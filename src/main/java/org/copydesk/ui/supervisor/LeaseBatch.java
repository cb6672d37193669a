package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.copydesk.lease.Lease;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Editor;
import org.copydesk.review.Supervision;
import org.copydesk.review.Supervision.ActiveLease;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * A supervisor's action on several leases, run on a worker thread: one call of the database's
 * operation per lease ({@code force_release_article}, {@code reassign_article}, {@code extend_lease}
 * through {@link Supervision}), and for each lease what happened, in plain words.
 *
 * <p>The leases were selected from a table that may be seconds old: each is read again just
 * before its call, and one that ended or changed hands meanwhile is left alone and said to be
 * lost, so a force release never takes an article from someone the supervisor did not see holding
 * it. (The operations themselves take no expected holder; closing that last gap of a few
 * milliseconds would need new database operations.)
 */
final class LeaseBatch {

    enum Result { DONE, LOST, SKIPPED, REFUSED, OVER_CAPACITY, NOT_TRIED }

    /** What happened to one lease. */
    record Outcome(long articleId, String title, Result result, String words) {
        @Override
        public String toString() {
            return words;
        }
    }

    /** Every lease's outcome, and the connection failure that stopped the batch, if one did. */
    record Results(List<Outcome> outcomes, Throwable connectionLost) {
        List<Outcome> of(Result result) {
            return outcomes.stream().filter(o -> o.result() == result).toList();
        }

        /** "Took 2 of 3 articles back; 1 had ended or changed hands." */
        String summary(Action action) {
            List<String> rest = new ArrayList<>();
            add(rest, of(Result.LOST).size() + of(Result.SKIPPED).size(), "dashboard.actions.batch.lost");
            add(rest, of(Result.REFUSED).size(), "dashboard.actions.batch.refused");
            add(rest, of(Result.OVER_CAPACITY).size(), "dashboard.actions.batch.overCapacity");
            add(rest, of(Result.NOT_TRIED).size(), "dashboard.actions.batch.notTried");
            String done = action.summary(of(Result.DONE).size(), outcomes.size());
            return rest.isEmpty() ? Messages.text("dashboard.actions.batch.summary", done)
                    : Messages.text("dashboard.actions.batch.summaryWithRest", done, String.join(", ", rest));
        }

        private static void add(List<String> parts, int n, String key) {
            if (n > 0) {
                parts.add(Messages.text(key, n));
            }
        }
    }

    /** One of the supervisor's actions on a lease. */
    sealed interface Action permits ForceRelease, Reassign, Extend {
        /** A few words for the log. */
        String name();

        /** "Took %s articles back": the summary with the count put in. */
        String summary(int done, int tried);

        Outcome apply(Supervision supervision, String supervisor, HolderRow row);
    }

    record ForceRelease(String reason) implements Action {
        @Override
        public String name() {
            return "force release";
        }

        @Override
        public String summary(int done, int tried) {
            return Messages.text("dashboard.actions.batch.released", done, tried);
        }

        @Override
        public Outcome apply(Supervision supervision, String supervisor, HolderRow row) {
            return doneIfHeld(row, supervision.forceRelease(row.id(), supervisor, reason),
                    ended -> Messages.text("dashboard.actions.outcome.released", row.title(), row.editorName()));
        }
    }

    /** @param outsideDesk the supervisor agreed to give articles of a desk {@code to} does not work on */
    record Reassign(Editor to, boolean overrideCapacity, boolean outsideDesk, String reason) implements Action {
        @Override
        public String name() {
            return "reassign";
        }

        @Override
        public String summary(int done, int tried) {
            return Messages.text("dashboard.actions.batch.reassigned", done, tried, to.displayName());
        }

        @Override
        public Outcome apply(Supervision supervision, String supervisor, HolderRow row) {
            if (row.editorId().equals(to.id())) {
                return outcome(row, Result.SKIPPED,
                        Messages.text("dashboard.actions.outcome.alreadyTheirs", row.title(), to.displayName()));
            }
            try {
                supervision.reassign(row.id(), to.id(), supervisor, new Supervision.Give(overrideCapacity, outsideDesk, reason));
            } catch (Supervision.OverCapacityException e) {
                return outcome(row, Result.OVER_CAPACITY, e.getMessage());
            }
            return outcome(row, Result.DONE, Messages.text("dashboard.actions.outcome.reassigned", row.title(), to.displayName()));
        }
    }

    record Extend(Duration by, ZoneId zone) implements Action {
        @Override
        public String name() {
            return "extend";
        }

        @Override
        public String summary(int done, int tried) {
            return Messages.text("dashboard.actions.batch.extended", done, tried);
        }

        @Override
        public Outcome apply(Supervision supervision, String supervisor, HolderRow row) {
            return doneIfHeld(row, supervision.extend(row.id(), by, supervisor),
                    lease -> Messages.text("dashboard.actions.outcome.extended", row.title(), Formats.localClock(lease.expiresAt(), zone)));
        }
    }

    static Action forceRelease(String reason) {
        return new ForceRelease(reason);
    }

    static Action reassign(Editor to, boolean overrideCapacity, boolean outsideDesk, String reason) {
        return new Reassign(to, overrideCapacity, outsideDesk, reason);
    }

    static Action extend(Duration by, ZoneId zone) {
        return new Extend(by, zone);
    }

    private final Supervision supervision;
    private final String supervisor;

    LeaseBatch(Supervision supervision, String supervisor) {
        this.supervision = supervision;
        this.supervisor = supervisor;
    }

    /** Runs {@code action} on each lease in turn; a lost connection stops the batch and the rest are not tried. */
    Results run(List<HolderRow> rows, Action action) {
        List<Outcome> outcomes = new ArrayList<>(rows.size());
        Throwable lost = null;
        for (HolderRow row : rows) {
            if (lost != null) {
                outcomes.add(notTried(row));
                continue;
            }
            try {
                outcomes.add(stillAsSelected(row).orElseGet(() -> action.apply(supervision, supervisor, row)));
            } catch (RuntimeException e) {
                if (ConnectionTrouble.isConnectionLost(e)) {
                    lost = e;
                    outcomes.add(notTried(row));
                } else {
                    outcomes.add(outcome(row, Result.REFUSED,
                            Messages.text("dashboard.actions.outcome.refused", row.title(), ConnectionTrouble.describe(e))));
                }
            }
        }
        return new Results(List.copyOf(outcomes), lost);
    }

    /** Empty if the lease is still the one selected; otherwise why it is left alone. */
    private Optional<Outcome> stillAsSelected(HolderRow row) {
        Optional<ActiveLease> now = supervision.activeLeases(Set.of(row.id())).stream().findFirst();
        if (now.isEmpty()) {
            return Optional.of(outcome(row, Result.LOST,
                    Messages.text("dashboard.actions.outcome.noLongerHeldBy", row.title(), row.editorName())));
        }
        ActiveLease lease = now.get();
        if (!lease.editorId().equals(row.editorId())) {
            return Optional.of(outcome(row, Result.LOST,
                    Messages.text("dashboard.actions.outcome.heldByOther", row.title(), lease.editorName(), row.editorName())));
        }
        if (row.claimedAt() != null && !row.claimedAt().equals(lease.claimedAt())) {
            return Optional.of(outcome(row, Result.LOST,
                    Messages.text("dashboard.actions.outcome.takenAfresh", row.title(), row.editorName())));
        }
        return Optional.empty();
    }

    /** An operation that answers with no lease when the article was not held (any more). */
    private static Outcome doneIfHeld(HolderRow row, Optional<Lease> lease, java.util.function.Function<Lease, String> words) {
        return lease.map(l -> outcome(row, Result.DONE, words.apply(l)))
                .orElseGet(() -> outcome(row, Result.LOST, Messages.text("dashboard.actions.outcome.noLongerHeld", row.title())));
    }

    private static Outcome outcome(HolderRow row, Result result, String words) {
        return new Outcome(row.id(), row.title(), result, words);
    }

    private static Outcome notTried(HolderRow row) {
        return outcome(row, Result.NOT_TRIED, Messages.text("dashboard.actions.outcome.notTried", row.title()));
    }
}
