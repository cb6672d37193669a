package org.copydesk.review;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * How the desks did (docs/deadlines.md, "How the desk did"), as the database's
 * {@code deadline_report} computes it for a supervisor: per day of the reader's clock, desk and
 * stage, the decisions, how many were of articles with a due time and how many of those were made
 * by it, and the median and 90th percentile of the time from arrival to decision. The days are
 * the reader's: their bounds are computed here in the reader's time zone (a day a clock change
 * shortens is 23 hours) and passed to the server as UTC times.
 */
public final class DeadlineReport {

    /** The most days one report covers. */
    public static final int MAX_DAYS = 31;

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** A day of the reader's calendar and the instants it starts and ends at. */
    public record Day(LocalDate date, Instant start, Instant end) {

        /** Whether it had ended by {@code now}: its numbers no longer change. */
        public boolean endedBy(Instant now) {
            return !end.isAfter(now);
        }
    }

    /**
     * A desk's (and stage's) decisions in a day, or over the whole span asked for ({@code day} null).
     * {@code stage} is null on a desk without stages, and on the row {@code throughDesk} of a desk
     * with stages: its final decisions (every one but a stage step), timed from the arrival of the
     * revision decided on, so through the whole chain. The percentiles are null without decisions.
     */
    public record Row(LocalDate day, String desk, String stage, String stageName, boolean throughDesk, int decisions, int withDue,
                      int inTime, Long p50Seconds, Long p90Seconds) {

        /** The share of the decisions of articles with a due time made by it, 0 to 1; null when none had one. */
        public Double shareInTime() {
            return withDue == 0 ? null : (double) inTime / withDue;
        }

        public Duration p50() {
            return p50Seconds == null ? null : Duration.ofSeconds(p50Seconds);
        }

        public Duration p90() {
            return p90Seconds == null ? null : Duration.ofSeconds(p90Seconds);
        }
    }

    /** The report of {@code days}: a row per day, desk and stage, and a row per desk and stage over them all. */
    public record Report(List<Day> days, List<Row> perDay, List<Row> wholeSpan) {
    }

    private final DSLContext dsl;
    private final DatabaseOperations operations;

    DeadlineReport(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.operations = operations;
    }

    /** The server's clock now: what "today" is, whatever the reader's computer says. */
    public Instant serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC);
    }

    /** {@code count} days of {@code zone}'s calendar, the last the one {@code now} falls in. */
    public static List<Day> daysUpTo(Instant now, int count, ZoneId zone) {
        LocalDate today = now.atZone(zone).toLocalDate();
        return days(today.minusDays(count - 1L), count, zone);
    }

    /** {@code count} days of {@code zone}'s calendar from {@code first}, each from its first moment to the next day's. */
    public static List<Day> days(LocalDate first, int count, ZoneId zone) {
        if (count < 1 || count > MAX_DAYS) {
            // a caller's bug: the command line checks --days, the dashboard asks for 7 and 1
            throw new IllegalStateException("a report covers 1 to " + MAX_DAYS + " days, not " + count);
        }
        List<Day> days = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            LocalDate date = first.plusDays(i);
            // atStartOfDay, not midnight: where a clock change skips midnight the day starts at 01:00
            days.add(new Day(date, date.atStartOfDay(zone).toInstant(), date.plusDays(1).atStartOfDay(zone).toInstant()));
        }
        return days;
    }

    /** The report of {@code days} (consecutive, as {@link #days} makes them) for {@code desk}, or every desk when null. */
    public Report of(String desk, List<Day> days) {
        List<String> bounds = new ArrayList<>();
        days.forEach(d -> bounds.add(utc(d.start())));
        bounds.add(utc(days.get(days.size() - 1).end()));
        String json = bounds.stream().map(b -> "\"" + b + "\"").collect(Collectors.joining(",", "[", "]"));
        List<Row> perDay = new ArrayList<>();
        List<Row> whole = new ArrayList<>();
        for (Record r : operations.fetch(Operation.DEADLINE_REPORT, desk, json)) {
            boolean span = DatabaseOperations.flag(Operation.DEADLINE_REPORT, r, "whole_span");
            Instant start = r.get("day_start", LocalDateTime.class).toInstant(ZoneOffset.UTC);
            LocalDate day = span ? null : days.stream().filter(d -> d.start().equals(start)).findFirst().map(Day::date)
                    .orElseThrow(() -> new IllegalStateException("deadline_report answered a day that was not asked for: " + start));
            Row row = new Row(day, r.get("desk_id", String.class), r.get("stage_id", String.class), r.get("stage_name", String.class),
                    DatabaseOperations.flag(Operation.DEADLINE_REPORT, r, "through_desk"), r.get("decisions", Integer.class),
                    r.get("with_due", Integer.class), r.get("in_time", Integer.class), r.get("p50_seconds", Long.class),
                    r.get("p90_seconds", Long.class));
            (span ? whole : perDay).add(row);
        }
        return new Report(List.copyOf(days), perDay, whole);
    }

    private static String utc(Instant at) {
        return UTC_TIME.format(at.atOffset(ZoneOffset.UTC));
    }
}
