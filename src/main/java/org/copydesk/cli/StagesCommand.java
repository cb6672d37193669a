package org.copydesk.cli;

import java.time.Duration;
import java.util.List;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Stage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk stages}: a desk's review chain (docs/workflow.md); every change is the database's own operation. */
@Command(name = "stages", description = "A desk's review chain: the stages an article passes through (docs/workflow.md).",
        mixinStandardHelpOptions = true,
        subcommands = {StagesCommand.ListStages.class, StagesCommand.Add.class, StagesCommand.Order.class,
                StagesCommand.Remove.class, StagesCommand.Move.class})
final class StagesCommand {

    private StagesCommand() {
    }

    @Command(name = "list", description = "Lists a desk's stages, first first (none: the desk has one review, as before).")
    static final class ListStages extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;

        ListStages() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            session.newsroom().desk(desk).orElseThrow(() -> new Cli.CommandFailure("There is no desk '" + desk + "'."));
            print(session.stages().chain(desk));
            return ExitCode.OK;
        }

        private void print(List<Stage> chain) {
            if (chain.isEmpty()) {
                out().println("The desk " + desk + " has no stages: each article has one review.");
                return;
            }
            Table t = new Table("#", "STAGE", "NAME", "ENTERED", "FOUR EYES", "LEASE", "TAKEN BY");
            for (Stage s : chain) {
                t.row(s.position(), s.id(), s.name(), s.whenAsked() ? "when asked" : "always", s.fourEyes() ? "yes" : "no",
                        s.leaseLength() == null ? "the desk's" : Durations.format(s.leaseLength()),
                        takenBy(s));
            }
            t.print(out());
        }
    }

    @Command(name = "add", description = {"Adds a stage to a desk's chain, or changes one (an admin's task).",
            "The first stage added takes in the desk's articles still in review."})
    static final class Add extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;
        @Parameters(index = "1", paramLabel = "STAGE", description = "its id (letters, digits, . _ -)")
        String stage;
        @Parameters(index = "2", paramLabel = "NAME", description = "what people see, e.g. \"Copy edit\"")
        String name;
        @Option(names = "--position", description = "where it goes in the chain, 1 first (default: at the end)")
        Integer position;
        @Option(names = "--lease", converter = Durations.class, paramLabel = "LENGTH",
                description = "its lease length (default: the desk's)")
        Duration lease;
        @Option(names = "--when-asked", description = "entered only when the reviewer before, or the import, asks for it")
        boolean whenAsked;
        @Option(names = "--four-eyes", description = "nobody who approved an earlier stage of the article may take it")
        boolean fourEyes;
        @Option(names = "--takers", split = ",", paramLabel = "PERSON",
                description = "only these people take it (default: the desk's editors)")
        List<String> takers;

        Add() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            ReviewStages stages = session.stages();
            boolean named = takers != null && !takers.isEmpty();
            stages.set(null, new ReviewStages.Settings(desk, stage, name, position, lease, whenAsked, fourEyes, named));
            if (named) {
                stages.setTakers(null, desk, stage, takers);
            }
            out().println("The chain of " + desk + " is now: " + describe(stages.chain(desk)) + ".");
            return ExitCode.OK;
        }
    }

    @Command(name = "order", description = "Puts a desk's stages in this order, every stage once, first first (an admin's task).")
    static final class Order extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;
        @Parameters(index = "1", paramLabel = "STAGE,STAGE,…", split = ",")
        List<String> stages;

        Order() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            out().println("The chain of " + desk + " is now: " + describe(session.stages().order(null, desk, stages)) + ".");
            return ExitCode.OK;
        }
    }

    @Command(name = "remove", description = {"Removes a stage (an admin's task). Articles in review at it go to --move-to;",
            "without it, a stage that holds articles is not removed. Removing the last stage gives the desk one review again."})
    static final class Remove extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "DESK")
        String desk;
        @Parameters(index = "1", paramLabel = "STAGE")
        String stage;
        @Option(names = "--move-to", paramLabel = "STAGE", description = "another stage of the desk, for the articles at this one")
        String moveTo;

        Remove() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            List<Stage> chain = session.stages().remove(null, desk, stage, moveTo);
            out().println(chain.isEmpty() ? "The desk " + desk + " has no stages now: each article has one review."
                    : "The chain of " + desk + " is now: " + describe(chain) + ".");
            return ExitCode.OK;
        }
    }

    @Command(name = "move",
            description = "Moves an article in review (not held) to another stage of its desk, with a reason (a supervisor's task).")
    static final class Move extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "ARTICLE", description = "the article's number")
        long article;
        @Parameters(index = "1", paramLabel = "STAGE")
        String stage;
        @Option(names = "--reason", required = true, description = "why (kept in the article's history)")
        String reason;

        Move() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            session.stages().moveTo(null, article, stage, reason);
            out().println("Article " + article + " now waits at " + stage + ".");
            return ExitCode.OK;
        }
    }

    private static String takenBy(Stage s) {
        if (!s.namedTakers()) {
            return "the desk's editors";
        }
        return s.takers().isEmpty() ? "nobody named yet" : String.join(",", s.takers());
    }

    static String describe(List<Stage> chain) {
        return chain.stream().map(s -> s.name() + (s.whenAsked() ? " (when asked)" : "") + (s.fourEyes() ? " (four eyes)" : ""))
                .reduce((a, b) -> a + " → " + b).orElse("no stages");
    }
}
