package org.copydesk.cli;

import java.time.Duration;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.outcomes.OutcomeRetention;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code copydesk purge --older-than 365d}: removes old history and old delivered outcomes; articles
 * and decisions themselves stay.
 */
@Command(name = "purge",
        description = "Removes history, and outcomes the relay delivered, older than a given age.")
final class PurgeCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--older-than", required = true, converter = Durations.class, paramLabel = "AGE", description = "e.g. 365d")
    Duration age;

    @Option(names = "--outcomes-not-delivered-too",
            description = "Also remove old outcomes the relay never delivered: for newsrooms whose systems only pull"
                    + " 'copydesk feed' and run no relay.")
    boolean everyOutcome;

    PurgeCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    void beforeOpening() {
        if (age.isZero() || age.isNegative()) {
            throw usage("--older-than must be a positive age, e.g. 365d.");
        }
    }

    @Override
    ExitCode run(ReviewSession session) {
        long removed = session.history().purgeOlderThan(age);
        long outcomes = session.outcomeRetention().purgeOlderThan(age,
                everyOutcome ? OutcomeRetention.Scope.EVERY_OUTCOME : OutcomeRetention.Scope.DELIVERED);
        out().println("Removed " + removed + " history entr" + (removed == 1 ? "y" : "ies")
                + " and " + outcomes + (everyOutcome ? "" : " delivered") + " outcome" + (outcomes == 1 ? "" : "s")
                + " older than " + age.toDays() + " day(s).");
        return ExitCode.OK;
    }
}
