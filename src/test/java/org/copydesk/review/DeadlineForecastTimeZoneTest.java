package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicReference;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.DeadlineForecast.Forecast;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The forecast is one set of moments whatever the zones (docs/deadlines.md, "What the database
 * enforces"): a client in Los Angeles, the server at +09:30, and the client's session at +05:00 in
 * 2037 read the same due times, the same expected times after the server's now and the same
 * articles at risk as a client in the test's own zone. {@link DeadlineForecastSecurityTest} checks
 * the at-risk set from raw SQL; this checks the times the Java client shows, which the dashboard
 * converts to the supervisor's zone.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineForecastTimeZoneTest {

    private final TestDatabase db;
    private final DSLContext dsl;

    DeadlineForecastTimeZoneTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @Test
    void aClientInAnotherZoneWithATamperedSessionReadsTheSameForecast() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of("news"));
        ForecastDesk news = new ForecastDesk(dsl, "news");
        news.decisions(null, 12, 10); // 300 s an article: the 2nd and 4th are due before their turn
        for (int due : new int[] {400, 500, 1000, 1100}) {
            news.article(3, null, due);
        }
        Forecast honest = new ReviewSession(db.database(), ReviewSession.Options.defaults()).deadlineForecast()
                .of("news", DeadlineForecast.DEFAULT_WITHIN);
        assertThat(honest.atRisk()).as("control: two at risk").isEqualTo(2);

        TimeZone original = TimeZone.getDefault();
        TestServerTimeZone serverZone = TestServerTimeZone.set(dsl, "+09:30");
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        try (Database client = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            AtomicReference<Forecast> tampered = new AtomicReference<>();
            client.dsl().connection(c -> {
                DSLContext session = DSL.using(c, client.dsl().dialect());
                session.execute("SET time_zone = '+05:00'");
                session.execute("SET timestamp = UNIX_TIMESTAMP('2037-06-01 12:00:00')");
                assertThat(session.fetchValue("SELECT CONCAT(YEAR(NOW()), ' ', @@session.time_zone)"))
                        .as("control: the session's own clock").hasToString("2037 +05:00");
                tampered.set(new DeadlineForecast(session, DatabaseOperations.withDefaultRetries(session))
                        .of("news", DeadlineForecast.DEFAULT_WITHIN));
            });
            Forecast f = tampered.get();

            assertThat(f.serverNow()).as("the server's now, not the session's or a zone's hours off")
                    .isBetween(honest.serverNow(), Instant.now().plusSeconds(1));
            assertThat(Duration.between(f.serverNow(), f.dueUntil())).isEqualTo(DeadlineForecast.DEFAULT_WITHIN);
            assertThat(f.articles()).extracting(DueArticle::id).containsExactlyElementsOf(
                    honest.articles().stream().map(DueArticle::id).toList());
            for (int i = 0; i < f.articles().size(); i++) {
                DueArticle a = f.articles().get(i);
                DueArticle h = honest.articles().get(i);
                assertThat(a.dueAt()).as("due time of %d", a.id()).isEqualTo(h.dueAt());
                assertThat(Duration.between(f.serverNow(), a.expectedAt())).as("expected after now, %d", a.id())
                        .isEqualTo(Duration.between(honest.serverNow(), h.expectedAt()));
                assertThat(a.atRisk()).as("at risk, %d", a.id()).isEqualTo(h.atRisk());
            }
            assertThat(f.atRisk()).isEqualTo(2);
        } finally {
            TimeZone.setDefault(original);
            serverZone.restore();
        }
    }
}
