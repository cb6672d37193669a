package org.copydesk.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.copydesk.review.ReviewServices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code copydesk purge --older-than 365d}: removes old history; articles themselves stay. */
@Command(name = "purge", mixinStandardHelpOptions = true, description = "Removes history older than a given age.")
final class PurgeCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Option(names = "--older-than", required = true, converter = Durations.class, paramLabel = "AGE", description = "e.g. 365d")
    Duration age;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (ReviewServices services = database.open(2)) {
            long removed = services.history().purgeOlderThan(age);
            spec.commandLine().getOut().println("Removed " + removed + " history entr" + (removed == 1 ? "y" : "ies")
                    + " older than " + age.toDays() + " day(s).");
        }
        return 0;
    }
}
