package org.copydesk.ui.common;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.Locale;

/** How times and durations read in the UI. */
public final class Formats {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm");
    private static final DateTimeFormatter DAY_CLOCK = DateTimeFormatter.ofPattern("d MMM HH:mm");

    private Formats() {
    }

    /** A countdown: "4:05", "1:02:03"; "0:00" when over. */
    public static String countdown(Duration left) {
        long s = Math.max(0, left.toSeconds());
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    /** A server time (UTC) shown on the PC's clock face, e.g. "14:05". */
    public static String localClock(LocalDateTime utc, ZoneId zone) {
        return utc.atOffset(ZoneOffset.UTC).atZoneSameInstant(zone).format(CLOCK);
    }

    public static String localDayClock(LocalDateTime utc, ZoneId zone) {
        return utc.atOffset(ZoneOffset.UTC).atZoneSameInstant(zone).format(DAY_CLOCK);
    }

    /** A count and its noun: "1 event", "2 events", "1,204 events"; {@code plural} for the irregular ones. */
    public static String count(long n, String singular, String plural) {
        return String.format("%,d %s", n, n == 1 ? singular : plural);
    }

    public static String count(long n, String singular) {
        return count(n, singular, singular + "s");
    }

    /** "3 min", "1 h 20 min". */
    public static String roughly(Duration d) {
        long m = Math.max(0, d.toMinutes());
        return m >= 60 ? (m / 60) + " h " + (m % 60) + " min" : Math.max(1, m) + " min";
    }

    /** A server time (UTC) as a date and time in the user's locale and time zone, e.g. "23 Nov 2026, 14:05". */
    public static String localDateTime(LocalDateTime utc, ZoneId zone, Locale locale) {
        return utc.atOffset(ZoneOffset.UTC).atZoneSameInstant(zone)
                .format(DateTimeFormatter.ofLocalizedDateTime(FormatStyle.MEDIUM, FormatStyle.SHORT).withLocale(locale));
    }
}
