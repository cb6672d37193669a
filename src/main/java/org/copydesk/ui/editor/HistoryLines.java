package org.copydesk.ui.editor;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.review.HistoryEntry;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * An article's history as the editor reads it: one line per event, except that a run of heartbeat
 * renewals by the same person is one line ("renewed 12 times by ann, last at 14:02") — a lease held
 * all morning renews every minute, and those lines buried the ones that matter.
 */
final class HistoryLines {

    private HistoryLines() {
    }

    static List<String> of(List<HistoryEntry> entries, ZoneId zone) {
        List<String> lines = new ArrayList<>();
        int i = 0;
        while (i < entries.size()) {
            HistoryEntry e = entries.get(i);
            int j = i + 1;
            if (isRenewal(e)) {
                while (j < entries.size() && isRenewal(entries.get(j)) && entries.get(j).actor().equals(e.actor())) {
                    j++;
                }
            }
            int run = j - i;
            if (run > 1) {
                HistoryEntry last = entries.get(j - 1);
                lines.add(Messages.text("editor.history.renewals", Formats.localDayClock(e.at(), zone), run, e.actor(),
                        Formats.localClock(last.at(), zone)));
            } else {
                boolean plain = e.detail() == null || e.detail().isBlank();
                lines.add(Messages.text(plain ? "editor.history.event" : "editor.history.eventWithDetail",
                        Formats.localDayClock(e.at(), zone), DataWords.action(e.action()), e.actor(), e.detail()));
            }
            i = j;
        }
        return lines;
    }

    private static boolean isRenewal(HistoryEntry e) {
        return "renew".equals(e.action());
    }
}
