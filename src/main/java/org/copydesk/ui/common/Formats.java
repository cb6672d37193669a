package org.copydesk.ui.common;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Locale;

/**
 * How times and durations read in the UI: the one place that formats a date or a time for people,
 * in the user's locale ("14:05" in Britain, "2:05 PM" in the US).
 */
public final class Formats {

    private Formats() {
    }

    /** A countdown: "4:05", "1:02:03"; "0:00" when over. */
    public static String countdown(Duration left) {
        long s = Math.max(0, left.toSeconds());
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    /** A server time (UTC) shown on the PC's clock face, e.g. "14:05", in the user's locale. */
    public static String localClock(LocalDateTime utc, ZoneId zone) {
        return localClock(utc, zone, userLocale());
    }

    public static String localClock(LocalDateTime utc, ZoneId zone, Locale locale) {
        return onClock(utc, zone).format(DateTimeFormatter.ofLocalizedTime(FormatStyle.SHORT).withLocale(locale));
    }

    /** A server time (UTC) with its day, e.g. "23 Nov 2026, 14:05", in the user's locale. */
    public static String localDayClock(LocalDateTime utc, ZoneId zone) {
        return localDayClock(utc, zone, userLocale());
    }

    public static String localDayClock(LocalDateTime utc, ZoneId zone, Locale locale) {
        return onClock(utc, zone).format(
                DateTimeFormatter.ofLocalizedDateTime(FormatStyle.MEDIUM, FormatStyle.SHORT).withLocale(locale));
    }

    /**
     * A server time (UTC) within the coming week, with its weekday: "Mon 14:05" (a deadline tomorrow
     * morning is not read as this morning's).
     */
    public static String localWeekdayClock(LocalDateTime utc, ZoneId zone) {
        Locale locale = userLocale();
        ZonedDateTime t = onClock(utc, zone);
        return t.format(DateTimeFormatter.ofPattern("EEE", locale)) + " "
                + t.format(DateTimeFormatter.ofLocalizedTime(FormatStyle.SHORT).withLocale(locale));
    }

    /** "3 min", "1 h 20 min". */
    public static String roughly(Duration d) {
        long m = Math.max(0, d.toMinutes());
        return m >= 60 ? Messages.text("common.duration.hoursMinutes", m / 60, m % 60)
                : Messages.text("common.duration.minutes", Math.max(1, m));
    }

    /** "News", "News and Sport", "News, Sport and Culture". */
    public static String list(List<String> items) {
        return items.size() <= 1 ? String.join("", items)
                : Messages.text("common.list.and", String.join(", ", items.subList(0, items.size() - 1)), items.get(items.size() - 1));
    }

    private static ZonedDateTime onClock(LocalDateTime utc, ZoneId zone) {
        return utc.atOffset(ZoneOffset.UTC).atZoneSameInstant(zone);
    }

    private static Locale userLocale() {
        return Locale.getDefault(Locale.Category.FORMAT);
    }
}
