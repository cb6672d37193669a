package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * How an article's due time reads on its card and in the reader: "due in 25 min", "due in 2 h 10 min",
 * "due 18:30" (further than {@link #CLOCK_AFTER}), "late by 12 min". Times on the person's own clock
 * face (their zone, daylight-saving changes included through java.time); the time left is the
 * server's ({@link LeaseRow#dueLeftProperty()}).
 */
final class DueWords {

    /** Beyond this, a count of hours says less than the time on the clock. */
    static final Duration CLOCK_AFTER = Duration.ofHours(6);

    private DueWords() {
    }

    /** True once the due time has passed (at 0:00 the article is late). */
    static boolean late(Duration left) {
        return left != null && left.compareTo(Duration.ZERO) <= 0;
    }

    /** The words for a due time {@code left} away; empty for an article without one ({@code left} null). */
    static String of(Instant due, Duration left, ZoneId zone) {
        if (due == null || left == null) {
            return "";
        }
        if (late(left)) {
            return Messages.text("editor.due.lateBy", Formats.roughly(left.negated()));
        }
        if (left.compareTo(CLOCK_AFTER) > 0) {
            LocalDateTime dueUtc = LocalDateTime.ofInstant(due, ZoneOffset.UTC);
            boolean today = due.atZone(zone).toLocalDate().equals(due.minus(left).atZone(zone).toLocalDate());
            String when = today ? Formats.localClock(dueUtc, zone)
                    : left.toDays() < 6 ? Formats.localWeekdayClock(dueUtc, zone) : Formats.localDayClock(dueUtc, zone);
            return Messages.text("editor.due.at", when);
        }
        return Messages.text("editor.due.in", left(left));
    }

    /**
     * Minutes rounded up: "due in 1 min" until it is late, never "due in 0 min"; the warning raised
     * at 10 minutes says 10, not 9.
     */
    static String left(Duration left) {
        return Formats.roughly(Duration.ofMinutes((left.toSeconds() + 59) / 60));
    }
}
