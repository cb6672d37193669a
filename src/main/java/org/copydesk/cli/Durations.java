package org.copydesk.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations people type: 90s, 15m, 2h, 30d (or ISO-8601 such as PT15M). */
final class Durations implements ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            // picocli shows a TypeConversionException's words as they are (any other exception with its class name)
            throw new TypeConversionException("'" + value + "' is not a duration; write e.g. 90s, 15m, 2h or 30d.");
        }
    }

    /** For a sentence: "5 s", "90 s", "15 min", "150 min", "2 h", "30 d"; sub-second ones in ms. */
    static String inWords(Duration d) {
        if (!d.isNegative() && !d.isZero() && d.toSeconds() == 0) {
            return d.toMillis() + " ms";
        }
        long s = Math.max(0, d.toSeconds());
        if (s < 120 || s % 60 != 0) {
            return s + " s";
        }
        long m = s / 60;
        if (m < 120 || m % 60 != 0) {
            return m + " min";
        }
        long h = m / 60;
        return h >= 48 && h % 24 == 0 ? h / 24 + " d" : h + " h";
    }

    /** For a table column: "0m45s", "2h30m". */
    static String format(Duration d) {
        if (!d.isNegative() && !d.isZero() && d.toSeconds() == 0) {
            return d.toMillis() + "ms";
        }
        long s = Math.max(0, d.toSeconds());
        if (s >= 3600) {
            return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        return String.format("%dm%02ds", s / 60, s % 60);
    }
}
