package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
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

    /**
     * The News desk's chain, as the demo newsroom's: Copy edit (the desk's editors) → Legal (only when
     * asked; {@code lawyer} alone, 60-minute leases) → Sign-off ({@code fourEyes}: not by whoever approved it before).
     */
    static void threeStageNews(ReviewSession session, String lawyer, boolean fourEyes) {
        ReviewStages stages = session.stages();
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, Duration.ofMinutes(60), true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, fourEyes, false));
        stages.setTakers(null, "news", "legal", List.of(lawyer));
    }
}
