package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import org.copydesk.review.Assignment;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk claim --as EDITOR}: the app's "Get articles", from a terminal. */
@Command(name = "claim",
        description = {"Gets articles for an editor, as the app's Get articles / Reload does:",
                "refreshes the leases the editor holds and tops up to their capacity."})
final class ClaimCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--as", required = true, paramLabel = "EDITOR", description = "the editor who claims")
    String editor;

    @Option(names = "--lease", converter = Durations.class, paramLabel = "LENGTH",
            description = "shorter leases than the desk's (e.g. 45s for a demo); never longer")
    Duration lease;

    @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
    boolean json;

    ClaimCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    ExitCode run(ReviewSession session) {
        Assignment a = session.queue().claim(editor, lease);
        PrintWriter out = out();
        if (json) {
            printJson(out, a);
            return ExitCode.OK;
        }
        out.println(editor + " holds " + a.articles().size() + " of " + a.capacity() + " (" + a.refreshed() + " refreshed, "
                + a.claimed() + " new).");
        if (!a.articles().isEmpty()) {
            Table t = new Table("ARTICLE", "DESK", "PRIORITY", "TITLE", "TIME LEFT");
            for (HeldArticle h : a.articles()) {
                t.row(h.id(), h.desk(), h.priority(), Table.clip(h.title(), 56), Durations.format(h.lease().remainingAtRead()));
            }
            t.print(out);
        }
        a.nextAvailableAt().ifPresent(next -> out.println("Next article on these desks becomes available at "
                + next.withNano(0).toString().replace('T', ' ') + " UTC."));
        return ExitCode.OK;
    }

    private void printJson(PrintWriter out, Assignment a) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            g.writeStringField("editor", editor);
            g.writeNumberField("capacity", a.capacity());
            g.writeNumberField("refreshed", a.refreshed());
            g.writeNumberField("claimed", a.claimed());
            JsonOutput.objects(g, "articles", a.articles(), (j, h) -> {
                j.writeNumberField("articleId", h.id());
                j.writeStringField("externalId", h.externalId());
                j.writeStringField("desk", h.desk());
                j.writeNumberField("priority", h.priority());
                j.writeStringField("title", h.title());
                JsonOutput.time(j, "expiresAt", h.lease().expiresAt());
                j.writeNumberField("secondsLeft", h.lease().remainingAtRead().toSeconds());
            });
            JsonOutput.time(g, "nextAvailableAt", a.nextAvailableAt().orElse(null));
            g.writeEndObject();
        });
    }
}
