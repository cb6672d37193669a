package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProblem;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.review.imports.ImportReportText;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The import's {@code due} field (docs/import-format.md, "Due times"), JSON and CSV, on the real
 * database: a due time with an offset is stored in UTC; one already past is taken and reported late
 * in one line; one without an offset, or unreadable, keeps its row aside with one line saying why;
 * a row without one takes the desk's default after the article becomes available.
 */
@ExtendWith(DatabaseExtension.class)
class DueImportTest {

    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_LOCAL_DATE_TIME;

    private final DSLContext dsl;
    private final ArticleImporter importer;

    DueImportTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.importer = new ArticleImporter(dsl, Clock.systemUTC());
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.deleteFrom(IMPORT_QUARANTINE).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport"));
    }

    private ImportReport importText(String text, String name) {
        ImportReport r = importer.importStream(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), name, -1, "sue",
                ImportListener.NONE);
        assertThat(r.imported() + r.alreadyPresent() + r.revisionRows().size() + r.quarantined())
                .as("every row accounted for once").isEqualTo(r.rowsRead());
        return r;
    }

    private LocalDateTime serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
    }

    private LocalDateTime due(String externalId) {
        return dsl.fetchValue(ARTICLE.DUE_AT, ARTICLE.EXTERNAL_ID.eq(externalId));
    }

    private static String row(String id, String desk, String dueField) {
        return "{\"external_id\": \"" + id + "\", \"desk\": \"" + desk + "\", \"title\": \"T " + id + "\", \"body\": \"B\""
                + (dueField == null ? "" : ", \"due\": " + dueField) + "}\n";
    }

    @Test
    void dueTimesWithAnOffsetAreStoredInUtcAPastOneIsLateAndALocalOrUnreadableOneIsKeptAside() {
        LocalDateTime now = serverNow().withNano(0);
        String inTwoHoursParis = now.plusHours(2).atOffset(ZoneOffset.UTC).withOffsetSameInstant(ZoneOffset.ofHours(1))
                .toLocalDateTime().format(ISO) + "+01:00";
        String text = row("D-1", "news", "\"" + now.plusHours(1).format(ISO) + ".250Z\"")
                + row("D-2", "news", "\"" + inTwoHoursParis + "\"")
                + row("D-3", "news", "\"" + now.minusMinutes(30).format(ISO) + "Z\"")
                + row("D-4", "news", "\"" + now.plusHours(3).format(ISO) + "\"")
                + row("D-5", "news", "\"tonight at six\"")
                + row("D-6", "news", "1764439200")
                + row("D-7", "news", null)
                + row("D-8", "news", "\"2026-11-29\"");

        ImportReport r = importText(text, "wire.ndjson");

        assertThat(r.imported()).isEqualTo(4);
        assertThat(due("D-1")).isEqualTo(now.plusHours(1).plusNanos(250_000_000));
        assertThat(due("D-2")).as("+01:00 converted to UTC").isEqualTo(now.plusHours(2));
        assertThat(due("D-3")).isEqualTo(now.minusMinutes(30));
        assertThat(due("D-7")).as("no due time, no desk default").isNull();
        assertThat(r.problems()).extracting(ImportProblem::line).containsExactly(4L, 5L, 6L, 8L);
        assertThat(r.problems().get(0).reason()).startsWith("due \"" + now.plusHours(3).format(ISO) + "\" has no offset");
        assertThat(r.problems().get(1).reason()).startsWith("due \"tonight at six\" is not an ISO-8601 date-time with an offset");
        assertThat(r.problems().get(2).reason()).startsWith("due must be an ISO-8601 date-time with an offset in quotes");
        assertThat(r.problems().get(3).reason()).as("a date alone names no hour").contains("is not an ISO-8601 date-time with an offset");
        assertThat(r.problems()).allSatisfy(p -> assertThat(p.reason()).doesNotContain("\n"));
        assertThat(r.warnings()).contains("1 article was already past the due time when imported: taken and marked late (line 3)");
        assertThat(ImportReportText.of(r)).contains("note: 1 article was already past the due time when imported");
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as("kept aside, nothing lost").isEqualTo(4);
    }

    /** A row kept aside for its due time, corrected by a supervisor, becomes an article due when the correction says. */
    @Test
    void aRowKeptAsideForItsDueTimeIsCorrectedWithOne() {
        LocalDateTime now = serverNow().withNano(0);
        ImportReport r = importText(row("Q-1", "news", "\"" + now.plusHours(4).format(ISO) + "\""), "wire.ndjson");
        assertThat(r.quarantined()).isEqualTo(1);
        long entry = dsl.fetchValue(IMPORT_QUARANTINE.ID, IMPORT_QUARANTINE.LINE_NUMBER.eq(1L));
        String corrected = row("Q-1", "news", "\"" + now.plusHours(4).format(ISO) + "+02:00\"");

        var done = new org.copydesk.review.imports.ImportQuarantine(dsl).requeue(entry, corrected, "sue");

        assertThat(done.outcome()).isEqualTo(org.copydesk.review.imports.RequeueResult.Outcome.IMPORTED);
        assertThat(due("Q-1")).isEqualTo(now.plusHours(2));
    }

    @Test
    void aCsvDueColumnAndTheDesksDefaultAfterTheArticleBecomesAvailable() {
        dsl.update(DESK).set(DESK.DUE_AFTER_SECONDS, 7200).where(DESK.ID.eq("sport")).execute();
        LocalDateTime now = serverNow().withNano(0);
        String embargo = now.plusHours(1).format(ISO) + "Z";
        String csv = "external_id,desk,title,body,available_at,due\n"
                + "C-1,news,Bridge,Text,," + now.plusMinutes(45).format(ISO) + "Z\n"
                + "C-2,sport,Cup,Text,," + now.plusMinutes(20).format(ISO) + "-05:00\n"
                + "C-3,sport,League,Text," + embargo + ",\n"
                + "C-4,sport,Derby,Text,,\n";

        ImportReport r = importText(csv, "wire.csv");

        assertThat(r.imported()).isEqualTo(4);
        assertThat(r.warnings()).noneMatch(w -> w.contains("late"));
        assertThat(due("C-1")).isEqualTo(now.plusMinutes(45));
        assertThat(due("C-2")).as("the row's own due time beats the desk's default").isEqualTo(now.plusMinutes(20).plusHours(5));
        assertThat(due("C-3")).as("two hours after the embargo lifts").isEqualTo(now.plusHours(3));
        LocalDateTime derby = due("C-4");
        assertThat(Duration.between(now.plusHours(2), derby)).as("two hours after it arrived").isBetween(Duration.ZERO,
                Duration.ofSeconds(30));
        assertThat(dsl.fetchValue(ARTICLE.DUE_ORDER, ARTICLE.EXTERNAL_ID.eq("C-4"))).as("claims order it by its minute")
                .isEqualTo(derby.truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
    }
}
