package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.TimeZone;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * Client in Los Angeles, server in a +09:30 zone, a person's own session set to +05:00: a due time
 * is one moment everywhere. What the client sets is what the database keeps in UTC, what a claim and
 * the due list give back is the same instant, the time left is measured on the server's clock, an
 * import's offset is honoured, and a deadline is missed when that moment passes, not hours off.
 */
class DueTimeZoneTest extends OperationsFixture {

    DueTimeZoneTest(TestDatabase db) {
        super(db);
    }

    @Test
    void aDueTimeIsOneMomentWhateverTheZonesOfClientServerAndSession() {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        TimeZone original = TimeZone.getDefault();
        TestServerTimeZone serverZone = TestServerTimeZone.set(dsl, "+09:30");
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        try (Database client = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            client.dsl().execute("SET time_zone = '+05:00'"); // a session that strays (the operations pin UTC)
            DueTimes due = DueTimes.over(client.dsl());
            Instant inTwoHours = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
            Instant tenMinutesAgo = Instant.now().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MILLIS);

            DueTimes.DueChange set = due.set("sue", ids.get(0), inTwoHours, "the late edition");
            assertThat(set.dueAt()).isEqualTo(inTwoHours);
            assertThat(set.late()).isFalse();
            assertThat(due.set("sue", ids.get(1), tenMinutesAgo, "the web").late()).isTrue();
            assertThat(storedText("id = " + ids.get(0))).as("kept in UTC").isEqualTo(utcText(inTwoHours));
            assertThat(due.of(ids.get(0))).isEqualTo(inTwoHours);

            List<DueTimes.DueArticle> upcoming = due.upcoming("news", Duration.ofHours(3));
            assertThat(upcoming).extracting(DueTimes.DueArticle::id).containsExactly(ids.get(1), ids.get(0));
            assertThat(upcoming.get(0).late()).isTrue();
            assertThat(upcoming.get(1).left()).isBetween(Duration.ofMinutes(119), Duration.ofMinutes(121));
            assertThat(due.upcoming("news", Duration.ofMinutes(90))).as("not within 90 minutes").hasSize(1);

            HeldArticle held = new ReviewProcedures(DatabaseOperations.withDefaultRetries(client.dsl()), ClaimStrategyKind.SKIP_LOCKED)
                    .claim("ann", null, 1, null).held().get(0);
            assertThat(held.id()).as("the earlier due first").isEqualTo(ids.get(1));
            assertThat(held.dueAt()).isEqualTo(tenMinutesAgo);

            String row = "{\"external_id\": \"TZ-1\", \"desk\": \"news\", \"title\": \"T\", \"body\": \"B\", \"due\": \""
                    + inTwoHours.atOffset(ZoneOffset.ofHoursMinutes(-3, -30)) + "\"}\n";
            new ArticleImporter(client.dsl(), Clock.systemUTC()).importStream(new ByteArrayInputStream(row.getBytes(
                    StandardCharsets.UTF_8)), "tz.ndjson", -1, "sue", ImportListener.NONE);
            assertThat(storedText("external_id = 'TZ-1'")).isEqualTo(utcText(inTwoHours));

            dsl.deleteFrom(OUTCOME_EVENT).execute();
            dsl.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
            client.dsl().fetchMany("CALL take_sweep_turn(5000)");
            assertThat(dsl.select(OUTCOME_EVENT.ARTICLE_ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.OUTCOME.eq("deadline_missed"))
                    .fetch(OUTCOME_EVENT.ARTICLE_ID)).as("only the one ten minutes late").containsExactly(ids.get(1));
        } finally {
            TimeZone.setDefault(original);
            serverZone.restore();
        }
    }

    /**
     * The column's text, as the server has it: this test's own pool was opened before the JVM's zone
     * changed, and the driver converts the DATETIME it reads as LocalDateTime with the zone it started with.
     */
    private String storedText(String where) {
        return dsl.fetchValue("SELECT CAST(due_at AS CHAR) FROM article WHERE " + where).toString();
    }

    private static String utcText(Instant at) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").format(at.atOffset(ZoneOffset.UTC));
    }
}
