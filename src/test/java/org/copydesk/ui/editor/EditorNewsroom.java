package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.Fixtures;
import org.jooq.DSLContext;

/** The newsroom the editor's window is tested in: News and Sport (30-minute leases), Sue who supervises, Ann who edits. */
final class EditorNewsroom {

    private EditorNewsroom() {
    }

    /** Empties the newsroom, then adds the desks, Sue and Ann (with this capacity, on these desks); returns Ann. */
    static Editor ann(ReviewSession session, DSLContext dsl, int capacity, List<String> desks) {
        Fixtures.emptyNewsroom(dsl);
        session.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        session.newsroom().addDesk("sport", "Sport", Duration.ofMinutes(30));
        session.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport"));
        return session.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, capacity, desks);
    }
}
