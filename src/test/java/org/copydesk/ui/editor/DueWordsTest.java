package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import org.copydesk.lease.Lease;
import org.copydesk.lease.RowKey;
import org.copydesk.review.HeldArticle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a due time reads on the card and in the reader, on the person's clock face (a daylight-saving
 * change included), and that the time left is the server's: a PC whose clock is 10 minutes wrong
 * shows what the server says.
 */
class DueWordsTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private Locale locale;

    @BeforeEach
    void britishClockFace() {
        locale = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(Locale.Category.FORMAT, Locale.UK);
    }

    @AfterEach
    void back() {
        Locale.setDefault(Locale.Category.FORMAT, locale);
    }

    @Test
    void minutesAndHoursLeftThenTheClockThenLate() {
        Instant due = Instant.parse("2026-11-29T17:30:00Z");
        assertThat(DueWords.of(due, Duration.ofMinutes(25), PARIS)).isEqualTo("due in 25 min");
        assertThat(DueWords.of(due, Duration.ofMinutes(24).plusSeconds(1), PARIS)).as("rounded up: never early").isEqualTo("due in 25 min");
        assertThat(DueWords.of(due, Duration.ofSeconds(5), PARIS)).isEqualTo("due in 1 min");
        assertThat(DueWords.of(due, Duration.ofHours(2).plusMinutes(10), PARIS)).isEqualTo("due in 2 h 10 min");
        assertThat(DueWords.of(due, Duration.ofHours(6), PARIS)).isEqualTo("due in 6 h 0 min");
        assertThat(DueWords.of(due, Duration.ofHours(7), PARIS)).as("further than 6 h: on the clock, in Paris").isEqualTo("due 18:30");
        assertThat(DueWords.of(due, Duration.ZERO, PARIS)).as("at 0:00 it is late").isEqualTo("late by 1 min");
        assertThat(DueWords.of(due, Duration.ofMinutes(-12).minusSeconds(30), PARIS)).isEqualTo("late by 12 min");
        assertThat(DueWords.of(due, Duration.ofMinutes(-75), PARIS)).isEqualTo("late by 1 h 15 min");
        assertThat(DueWords.of(null, null, PARIS)).as("no due time: nothing").isEmpty();
        assertThat(DueWords.late(Duration.ofSeconds(1))).isFalse();
        assertThat(DueWords.late(Duration.ZERO)).isTrue();
        assertThat(DueWords.late(null)).isFalse();
    }

    @Test
    void aDueTimeAcrossTheDaylightSavingChangeAndTomorrowsAreOnThePersonsClock() {
        // the clocks go forward in Paris at 01:00 UTC on 29 March 2026 (02:00 CET becomes 03:00 CEST)
        Instant due = Instant.parse("2026-03-29T07:00:00Z");
        assertThat(DueWords.of(due, Duration.ofHours(7), PARIS)).as("00:00 UTC (01:00 CET) now: 09:00 CEST, not 08:00")
                .isEqualTo("due 09:00");
        assertThat(DueWords.of(due, Duration.ofHours(10), PARIS)).as("21:00 UTC the evening before: tomorrow's")
                .isEqualTo("due Sun 09:00");
        assertThat(DueWords.of(due, Duration.ofDays(9), PARIS)).as("further than a week: the date").isEqualTo("due 29 Mar 2026, 09:00");
    }

    /**
     * The PC's clock is 10 minutes behind the server's. The lease was read at the server's time; the
     * card counts from there on the PC's monotonic clock, so it says what the server says (a count
     * from the PC's wall clock would say 35 minutes).
     */
    @Test
    void aClientWhoseClockIsTenMinutesWrongStillShowsTheServersTimeLeft() {
        LocalDateTime serverNow = LocalDateTime.now(ZoneOffset.UTC).plusMinutes(10);
        Instant due = serverNow.plusMinutes(25).toInstant(ZoneOffset.UTC);
        Lease lease = new Lease(RowKey.of(1L), "ann", 7, serverNow.plusMinutes(30), serverNow);
        LeaseRow row = new LeaseRow(new HeldArticle(1, "x-1", "news", "Budget", null, 3, 0, serverNow, lease, null, due), 5_000L);

        assertThat(row.dueLeftProperty().get()).isEqualTo(Duration.ofMinutes(25));
        assertThat(DueWords.of(due, row.dueLeftProperty().get(), PARIS)).isEqualTo("due in 25 min");

        row.tick(5_000L + Duration.ofMinutes(26).toNanos());
        assertThat(row.dueLeftProperty().get()).isEqualTo(Duration.ofMinutes(-1));
        assertThat(DueWords.of(due, row.dueLeftProperty().get(), PARIS)).isEqualTo("late by 1 min");
        assertThat(row.remainingProperty().get()).as("the lease, on the same clock").isEqualTo(Duration.ofMinutes(4));
    }
}
