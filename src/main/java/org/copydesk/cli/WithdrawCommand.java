package org.copydesk.cli;

import java.util.ArrayList;
import java.util.List;
import org.copydesk.review.ArticleWithdrawal;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk withdraw ARTICLE… | --demo}: takes articles out of Copydesk altogether (an admin's task). */
@Command(name = "withdraw",
        description = {"Takes articles out of Copydesk with their revisions, drafts, decisions, history and outcomes",
                "(delivered or not: nothing of them reaches the feed or the relay afterwards). An admin's task.",
                "--demo withdraws the demo newsroom's articles; remove its people with copydesk editors remove."})
final class WithdrawCommand extends DatabaseCommand<ReviewSession> {

    @Parameters(arity = "0..*", paramLabel = "ARTICLE", description = "article numbers (as copydesk status and claim show them)")
    List<Long> articles = new ArrayList<>();

    @Option(names = "--demo", description = "every article of the demo newsroom (demo-0001 ... demo-0320)")
    boolean demo;

    WithdrawCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    void beforeOpening() {
        if (articles.isEmpty() && !demo) {
            throw usage("Name the articles to withdraw, or give --demo.");
        }
    }

    @Override
    ExitCode run(ReviewSession session) {
        ArticleWithdrawal withdrawal = ArticleWithdrawal.of(session);
        List<Long> ids = new ArrayList<>(articles);
        if (demo) {
            ids.addAll(withdrawal.demoArticles());
        }
        int withdrawn = withdrawal.withdraw(ids);
        out().println("Withdrew " + withdrawn + " article(s)" + (demo ? " (the demo newsroom's)" : "") + ".");
        return ExitCode.OK;
    }
}
