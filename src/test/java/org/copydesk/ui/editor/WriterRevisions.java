package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReport;

/** A writer's article on the News desk coming in, and coming back revised, for the editor's window tests. */
final class WriterRevisions {

    static final String EXTERNAL_ID = "CMS-41";
    static final String FIRST = "The council voted 7-2 on Tuesday to close the pool.";
    static final String SECOND = "The council voted 8-1 on Tuesday evening to close the pool.";
    static final String THIRD = "The council voted 8-1 on Tuesday evening to close the old pool for repairs.";
    static final String NOTES = "Check the vote count with the clerk; say when the meeting was.";

    private final ArticleImporter importer;
    private final String externalId;

    WriterRevisions(ReviewSession session) {
        this(session, EXTERNAL_ID);
    }

    WriterRevisions(ReviewSession session, String externalId) {
        this.importer = new ArticleImporter(session.database().dsl(), Clock.systemUTC());
        this.externalId = externalId;
    }

    /** The CMS sends this text (the first time: revision 1; a changed text: a new revision). */
    ImportReport arrives(String title, String body) {
        String line = "{\"external_id\": \"" + externalId + "\", \"desk\": \"news\", \"title\": \"" + title
                + "\", \"body\": \"" + body + "\", \"byline\": \"Kim Lee\"}\n";
        return importer.importStream(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "cms.ndjson", -1,
                "sue", ImportListener.NONE);
    }

    /** {@code editor} gets the article and sends it back to its writer with {@link #NOTES}. */
    static void sentBackBy(ReviewSession session, String editor) {
        HeldArticle held = session.queue().claim(editor).articles().stream()
                .filter(a -> a.externalId().equals(EXTERNAL_ID)).findFirst().orElseThrow();
        DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(),
                Verdict.SEND_BACK, NOTES));
        assertThat(outcome).isInstanceOf(DecisionOutcome.Recorded.class);
    }
}
