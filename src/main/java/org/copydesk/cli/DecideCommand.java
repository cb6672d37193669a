package org.copydesk.cli;

import java.util.UUID;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk decide ARTICLE VERDICT --as EDITOR}: submits a decision on an article the editor holds. */
@Command(name = "decide",
        description = "Approves, rejects, sends back or marks unreviewable an article the editor holds.")
final class DecideCommand extends DatabaseCommand<ReviewSession> {

    @Parameters(index = "0", paramLabel = "ARTICLE", description = "article id")
    long articleId;

    @Parameters(index = "1", paramLabel = "VERDICT", description = "approve, reject, send_back or unreviewable")
    Verdict verdict;

    @Option(names = "--as", required = true, paramLabel = "EDITOR")
    String editor;

    @Option(names = "--notes", defaultValue = "", description = "reason or notes (needed for reject, send_back, unreviewable)")
    String notes;

    DecideCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    ExitCode run(ReviewSession session) {
        // The editor's current lease on the article, as their app would hold it.
        HeldArticle held = session.queue().held(editor).stream().filter(a -> a.id() == articleId).findFirst()
                .orElseThrow(() -> new Cli.CommandFailure(editor + " does not hold article " + articleId
                        + "; run copydesk claim --as " + editor + " first."));
        DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), articleId, held.lease(),
                verdict, notes));
        if (outcome instanceof DecisionOutcome.Recorded r) {
            out().println("Recorded: " + verdict.label() + " on article " + articleId + " (now "
                    + r.resultingStatus() + (r.autoQuarantined() ? ", sent back too often" : "")
                    + (r.returnsAt() == null ? "" : ", back in the queue at " + r.returnsAt().withNano(0) + " UTC")
                    + ("awaiting_writer".equals(r.resultingStatus())
                            ? "; it waits for the writer's revision, which the next import brings back to the queue" : "")
                    + ").");
            return ExitCode.OK;
        }
        if (outcome instanceof DecisionOutcome.Lost l) {
            throw new Cli.CommandFailure(l.message());
        }
        if (outcome instanceof DecisionOutcome.Refused r) {
            throw new Cli.CommandFailure(r.message());
        }
        return ExitCode.OK; // already recorded by an earlier attempt
    }
}
