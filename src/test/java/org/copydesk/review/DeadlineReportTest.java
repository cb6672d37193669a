package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.review.DeadlineReport.Day;
import org.copydesk.review.DeadlineReport.Report;
import org.copydesk.review.DeadlineReport.Row;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How the desk did (docs/deadlines.md, "How the desk did") on a history whose every time is known:
 * London's 24, 25 and 26 October 2026, the 25th 25 hours long (the clocks go back at 01:00 UTC).
 * The counts, the shares in time and the nearest-rank percentiles are checked exactly, per day, per
 * stage and over the whole span; a decision half an hour into the 25th in London (23:30 UTC on the
 * 24th) and one at 23:30 on the 25th (the 25th hour) count on the 25th.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineReportTest {

    private static final ZoneId LONDON = ZoneId.of("Europe/London");
    private static final LocalDate OCT_24 = LocalDate.of(2026, 10, 24);
    private static final LocalDate OCT_25 = LocalDate.of(2026, 10, 25);
    private static final LocalDate OCT_26 = LocalDate.of(2026, 10, 26);

    private final DSLContext dsl;
    private final DeadlineReport reports;
    private final DecisionHistory news;
    private final DecisionHistory legal;

    DeadlineReportTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.reports = new ReviewSession(db.database(), ReviewSession.Options.defaults()).deadlineReport();
        this.news = new DecisionHistory(dsl, "news");
        this.legal = new DecisionHistory(dsl, "legal");
    }

    private static Instant at(String utc) {
        return Instant.parse(utc);
    }

    @BeforeEach
    void aKnownHistory() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("legal", "Legal desk", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news", "legal"));

        // 24 October (BST, 23:00 UTC on the 23rd to 23:00 UTC on the 24th): six decisions, 10 to 60 minutes after arrival
        Instant arrived = at("2026-10-24T09:00:00Z");
        long noDue = news.article(arrived, null);
        news.approved(noDue, null, arrived.plusSeconds(600));
        long dueLater = news.article(arrived, arrived.plusSeconds(5000));
        news.approved(dueLater, null, arrived.plusSeconds(1200));
        long dueThen = news.article(arrived, arrived.plusSeconds(1800)); // decided at its due time: in time
        news.approved(dueThen, null, arrived.plusSeconds(1800));
        long late = news.article(arrived, arrived.plusSeconds(2000));
        news.approved(late, null, arrived.plusSeconds(2400));
        long inTime = news.article(arrived, arrived.plusSeconds(4000));
        news.approved(inTime, null, arrived.plusSeconds(3000));
        // sent back 60 minutes after arrival; its revision 2 comes back on the 25th at 11:00 and is approved at 12:00
        long sentBack = news.article(arrived, at("2026-10-25T13:00:00Z"));
        news.decided(sentBack, null, 1, DecisionVerdict.send_back, arrived.plusSeconds(3600));
        news.revision(sentBack, 2, at("2026-10-25T11:00:00Z"));
        news.decided(sentBack, null, 2, DecisionVerdict.approve, at("2026-10-25T12:00:00Z"));

        // 25 October (25 hours: 23:00 UTC on the 24th to 00:00 UTC on the 26th)
        long firstHalfHour = news.article(at("2026-10-24T23:20:00Z"), at("2026-10-24T23:25:00Z")); // 00:30 BST: the 25th, late
        news.approved(firstHalfHour, null, at("2026-10-24T23:30:00Z"));
        long lastHour = news.article(at("2026-10-25T23:00:00Z"), null); // 23:30 GMT: still the 25th
        news.approved(lastHour, null, at("2026-10-25T23:30:00Z"));

        // 26 October, a desk with a chain: copy, then legal; the legal stage's clock starts at the copy decision
        legal.stage("copy", 1);
        legal.stage("legal", 2);
        Instant morning = at("2026-10-26T08:00:00Z");
        long a = legal.article(morning, at("2026-10-26T09:00:00Z"));
        legal.passedOn(a, "copy", "legal", morning.plusSeconds(600));
        legal.approved(a, "legal", morning.plusSeconds(600 + 3600)); // 09:10: after its due time
        long b = legal.article(morning, at("2026-10-26T09:00:00Z"));
        legal.passedOn(b, "copy", "legal", morning.plusSeconds(1800));
        legal.decided(b, "legal", 1, DecisionVerdict.reject, morning.plusSeconds(1800 + 600));
        // rejected at copy: final there, never reaches legal (in time: due at 12:00)
        long c = legal.article(morning, at("2026-10-26T12:00:00Z"));
        legal.decided(c, "copy", 1, DecisionVerdict.reject, morning.plusSeconds(900));
        // outside the span: the 27th
        legal.passedOn(legal.article(at("2026-10-27T00:10:00Z"), null), "copy", "legal", at("2026-10-27T00:20:00Z"));
    }

    private static Row row(List<Row> rows, LocalDate day, String desk, String stage) {
        return rows.stream().filter(r -> java.util.Objects.equals(r.day(), day) && r.desk().equals(desk)
                && java.util.Objects.equals(r.stage(), stage) && !r.throughDesk()).findFirst().orElseThrow(() -> new AssertionError(
                "no row for " + day + " " + desk + " " + stage + " in " + rows));
    }

    private static Row throughDesk(List<Row> rows, LocalDate day, String desk) {
        return rows.stream().filter(r -> java.util.Objects.equals(r.day(), day) && r.desk().equals(desk) && r.throughDesk())
                .findFirst().orElseThrow(() -> new AssertionError("no through-the-desk row for " + day + " " + desk + " in " + rows));
    }

    @Test
    void theDaysAreLondonsAndTheTwentyFifthHasTwentyFiveHours() {
        List<Day> days = DeadlineReport.days(OCT_24, 3, LONDON);
        assertThat(days).extracting(d -> Duration.between(d.start(), d.end()).toHours()).containsExactly(24L, 25L, 24L);
        assertThat(days.get(1).start()).isEqualTo(at("2026-10-24T23:00:00Z"));
        assertThat(DeadlineReport.daysUpTo(at("2026-10-26T23:30:00Z"), 2, LONDON)).extracting(Day::date)
                .containsExactly(OCT_25, OCT_26);
    }

    @Test
    void eachDayDeskAndStageHasItsDecisionsItsShareInTimeAndItsNearestRankPercentiles() {
        Report report = reports.of(null, DeadlineReport.days(OCT_24, 3, LONDON));
        List<Row> rows = report.perDay();
        assertThat(rows).as("news on the 24th and 25th; legal's two stages and its final decisions on the 26th").hasSize(5);
        assertThat(rows).filteredOn(Row::throughDesk).as("a desk without stages has no such row").extracting(Row::desk)
                .containsExactly("legal");

        Row oct24 = row(rows, OCT_24, "news", null);
        assertThat(oct24.decisions()).isEqualTo(6);
        assertThat(oct24.withDue()).as("five of the six had a due time").isEqualTo(5);
        assertThat(oct24.inTime()).as("all but the one decided 400 s late").isEqualTo(4);
        // 600, 1200, 1800, 2400, 3000, 3600: the 3rd and the CEIL(5.4) = 6th
        assertThat(oct24.p50Seconds()).isEqualTo(1800);
        assertThat(oct24.p90Seconds()).isEqualTo(3600);

        Row oct25 = row(rows, OCT_25, "news", null);
        assertThat(oct25.decisions()).as("00:30 BST, the revision's approval, and 23:30 GMT").isEqualTo(3);
        assertThat(oct25.withDue()).isEqualTo(2);
        assertThat(oct25.inTime()).isEqualTo(1);
        assertThat(oct25.shareInTime()).isEqualTo(0.5);
        // 600 (00:30 BST), 3600 (revision 2 came back at 11:00, not the send-back or the first arrival), 1800 (23:30 GMT)
        assertThat(oct25.p50Seconds()).as("the CEIL(1.5) = 2nd of 600, 1800, 3600").isEqualTo(1800);
        assertThat(oct25.p90Seconds()).isEqualTo(3600);

        Row copy = row(rows, OCT_26, "legal", "copy");
        assertThat(copy.stageName()).isEqualTo("Copy");
        assertThat(copy.decisions()).as("two passed on, one rejected").isEqualTo(3);
        assertThat(copy.inTime()).isEqualTo(3);
        // 600, 900, 1800: the 2nd and the CEIL(2.7) = 3rd
        assertThat(copy.p50Seconds()).isEqualTo(900);
        assertThat(copy.p90Seconds()).isEqualTo(1800);
        Row legalStage = row(rows, OCT_26, "legal", "legal");
        assertThat(legalStage.inTime()).as("the approval at 09:10 was late, the rejection at 08:40 not").isEqualTo(1);
        assertThat(legalStage.p50Seconds()).as("from the copy decision: 3600 and 600").isEqualTo(600);
        assertThat(legalStage.p90Seconds()).isEqualTo(3600);
        assertThat(rows).extracting(Row::stage).as("the chain's order within the desk").containsSubsequence("copy", "legal");

        // the article's end, not a stage's: legal's approval (late) and rejection, and copy's rejection;
        // timed from arrival at 08:00 through the chain: 4200, 2400 and 900 s
        Row through = throughDesk(rows, OCT_26, "legal");
        assertThat(through.stage()).isNull();
        assertThat(through.decisions()).as("the two passed on at copy are steps, not ends").isEqualTo(3);
        assertThat(through.withDue()).isEqualTo(3);
        assertThat(through.inTime()).as("all but the approval at 09:10").isEqualTo(2);
        assertThat(through.p50Seconds()).as("the 2nd of 900, 2400, 4200").isEqualTo(2400);
        assertThat(through.p90Seconds()).isEqualTo(4200);
        assertThat(rows.get(rows.size() - 1)).as("after the desk's stages").isSameAs(through);
        assertThat(throughDesk(report.wholeSpan(), null, "legal").decisions()).isEqualTo(3);

        Row wholeNews = row(report.wholeSpan(), null, "news", null);
        assertThat(wholeNews.decisions()).isEqualTo(9);
        assertThat(wholeNews.withDue()).isEqualTo(7);
        assertThat(wholeNews.inTime()).isEqualTo(5);
        // 600, 600, 1200, 1800, 1800, 2400, 3000, 3600, 3600: the 5th and the 9th, of all nine, not of the days' figures
        assertThat(wholeNews.p50Seconds()).isEqualTo(1800);
        assertThat(wholeNews.p90Seconds()).isEqualTo(3600);
        assertThat(report.wholeSpan()).hasSize(4);
    }

    @Test
    void aDeskAlone() {
        Report report = reports.of("legal", DeadlineReport.days(OCT_25, 2, LONDON));
        assertThat(report.perDay()).extracting(Row::desk).containsOnly("legal");
        assertThat(report.perDay()).extracting(Row::stage).containsExactly("copy", "legal", null);
        assertThat(reports.of("news", DeadlineReport.days(OCT_26, 1, LONDON)).perDay()).isEmpty();
    }

    @Test
    void badDaysAreRefusedInOneLine() {
        DatabaseOperations ops = DatabaseOperations.withDefaultRetries(dsl);
        List.of("not json", "{\"a\": 1}", "[\"2026-10-24 23:00:00\"]", "[\"2026-10-24 23:00:00\", \"2026-10-24 22:00:00\"]",
                "[\"2026-10-24 23:00:00\", \"2026-10-26 23:00:00\"]", "[\"2026-10-24 23:00:00\", \"2026-10-25T23:00:00Z\"]",
                "[\"2026-02-30 00:00:00\", \"2026-03-01 00:00:00\"]", "[1, 2]", longSpan()).forEach(days ->
                assertThatThrownBy(() -> ops.fetch(Operation.DEADLINE_REPORT, null, days)).as(days)
                        .isInstanceOf(OperationRefusedException.class).hasMessageStartingWith("A report")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n")));
        assertThatThrownBy(() -> ops.fetch(Operation.DEADLINE_REPORT, "nowhere", "[\"2026-10-24 23:00:00\", \"2026-10-25 23:00:00\"]"))
                .hasMessageContaining("no such desk");
        assertThat(ops.fetch(Operation.DEADLINE_REPORT, null, "[\"2026-10-24 23:00:00\", \"2026-10-25 23:00:00\"]"))
                .as("control: a good day").isNotEmpty();
    }

    private static String longSpan() {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i <= 32; i++) {
            s.append(i == 0 ? "" : ", ").append('"').append(LocalDate.of(2026, 1, 1).plusDays(i)).append(" 00:00:00\"");
        }
        return s.append(']').toString();
    }
}
