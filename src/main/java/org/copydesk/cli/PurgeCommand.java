package org.copydesk.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.outcomes.OutcomeRetention;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk purge --older-than 365d}: removes old history and old delivered outcomes; articles
 * and decisions themselves stay.
 */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = "Removes history, and outcomes the relay delivered, older than a given age.")
final class PurgeCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Option(names = "--older-than", required = true, converter = Durations.class, paramLabel = "AGE", description = "e.g. 365d")
    Duration age;

    @Option(names = "--outcomes-not-delivered-too",
            description = "Also remove old outcomes the relay never delivered: for newsrooms whose systems only pull"
                    + " 'copydesk feed' and run no relay.")
    boolean everyOutcome;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (age.isZero() || age.isNegative()) {
            throw Cli.usage(spec, "--older-than must be a positive age, e.g. 365d.");
        }
        try (ReviewSession session = database.open(2)) {
            long removed = session.history().purgeOlderThan(age);
            long outcomes = session.outcomeRetention().purgeOlderThan(age,
                    everyOutcome ? OutcomeRetention.Scope.EVERY_OUTCOME : OutcomeRetention.Scope.DELIVERED);
            spec.commandLine().getOut().println("Removed " + removed + " history entr" + (removed == 1 ? "y" : "ies")
                    + " and " + outcomes + (everyOutcome ? "" : " delivered") + " outcome" + (outcomes == 1 ? "" : "s")
                    + " older than " + age.toDays() + " day(s).");
        }
        return 0;
    }
}
