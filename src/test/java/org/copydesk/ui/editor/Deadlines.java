package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.ReviewSession;
import org.jooq.DSLContext;

/** Due times for the editor's window tests, set by Sue (the supervisor) as the newsroom would: relative to the server's clock. */
final class Deadlines {

    private Deadlines() {
    }

    /** Sue makes the article due {@code fromNow} from the server's now (negative: already late); returns the due time. */
    static Instant due(ReviewSession session, DSLContext dsl, long articleId, Duration fromNow) {
        Instant at = dsl.select(ServerClock.now()).fetchOne().value1().toInstant(ZoneOffset.UTC).plus(fromNow);
        session.dueTimes().set("sue", articleId, at, "the web edition");
        return at;
    }
}
