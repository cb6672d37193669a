package org.copydesk.ui.editor;

import java.util.List;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Whether the database answers. A call unanswered too long takes the window offline; offline, the
 * window asks again when its connection status says a probe is due. When the database answers,
 * what was typed is saved and the leases held are renewed (those lost meanwhile leave with the
 * reason). Nothing is claimed here: after an outage every window of the newsroom would take work
 * at once. The list watch tops the list up afterwards only if the editor chose so.
 */
final class Reconnection {

    private final EditorContext context;
    private final DraftKeeper drafts;
    private final LeaseUpkeep upkeep;

    Reconnection(EditorContext context, DraftKeeper drafts, LeaseUpkeep upkeep) {
        this.context = context;
        this.drafts = drafts;
        this.upkeep = upkeep;
    }

    /** First thing every tick: a call unanswered too long means the database is not answering. */
    void noticeSilence() {
        if (context.tasks.waitingTooLong()) {
            context.connection.notAnswering();
        }
    }

    /** Every tick: a probe when one is due (offline, none running). */
    void tick() {
        if (context.connection.startProbeIfDue()) {
            probe();
        }
    }

    private void probe() {
        BackgroundTask.of("reconnect", () -> context.session.queue().recordPresence(context.editor.id()))
                .onSuccess(ok -> {
                    context.connection.back();
                    context.notices.post(Notice.Kind.SUCCESS, Messages.text("editor.backOnline"));
                    drafts.flushAll();
                    if (!context.idle()) { // as the heartbeat: an away editor's leases run out (the list watch says so)
                        upkeep.renew(List.copyOf(context.held.rows()));
                    }
                })
                .onFailure(failure -> context.connection.probeFailed())
                .executeWith(context.tasks);
    }
}
