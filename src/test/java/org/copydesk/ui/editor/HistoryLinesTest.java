package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.review.HistoryEntry;
import org.junit.jupiter.api.Test;

/** Heartbeat renewals would flood an article's history: a run of them reads as one line. */
class HistoryLinesTest {

    private static final LocalDateTime T = LocalDateTime.of(2026, 11, 23, 13, 50);

    private static HistoryEntry e(int minute, String action, String actor, String detail) {
        return new HistoryEntry(minute, T.plusMinutes(minute), action, actor, null, null, 1L, detail);
    }

    @Test
    void aRunOfRenewalsIsOneLineWithTheCountAndTheLastTime() {
        List<HistoryEntry> entries = new ArrayList<>();
        entries.add(e(0, "claim", "ann", null));
        for (int m = 1; m <= 12; m++) {
            entries.add(e(m, "renew", "ann", null));
        }
        entries.add(e(13, "force_release", "sue", "Legal first"));

        assertThat(HistoryLines.of(entries, ZoneId.of("UTC"))).containsExactly(
                "23 Nov 2026, 13:50  claim by ann",
                "23 Nov 2026, 13:51  renewed 12 times by ann, last at 14:02",
                "23 Nov 2026, 14:03  force release by sue \u2014 Legal first");
    }

    @Test
    void aSingleRenewalAndRenewalsByDifferentPeopleStaySeparate() {
        List<HistoryEntry> entries = List.of(e(0, "renew", "ann", null), e(1, "reassign", "sue", null),
                e(2, "renew", "bob", null), e(3, "renew", "bob", null));
        assertThat(HistoryLines.of(entries, ZoneId.of("UTC"))).containsExactly(
                "23 Nov 2026, 13:50  renew by ann",
                "23 Nov 2026, 13:51  reassign by sue",
                "23 Nov 2026, 13:52  renewed 2 times by bob, last at 13:53");
    }
}
