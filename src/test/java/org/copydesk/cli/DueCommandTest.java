package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code copydesk due set|list} (docs/deadlines.md): a supervisor sets a due time in their own time
 * zone with a reason; the list shows what is due soon in the caller's zone, the time left on the
 * server's clock, the late ones marked; an editor's account cannot set one.
 */
@ExtendWith(DatabaseExtension.class)
class DueCommandTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    private final TestDatabase db;
    private final DSLContext dsl;
    private final CliRunner cli;

    DueCommandTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("due_cli_ed", "Ed", Role.EDITOR, 5, List.of("news"));
    }

    private Instant due(long id) {
        LocalDateTime utc = dsl.fetchValue(ARTICLE.DUE_AT, ARTICLE.ID.eq(id));
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }

    @Test
    void aSupervisorSetsDueTimesInTheirZoneAndTheListShowsTimeLeftAndWhatIsLate() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        long sport = Fixtures.articles(dsl, "sport", 1, 3, -60).get(0);
        Instant inAnHour = Instant.now().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

        CliRunner.Run set = cli.run("due", "set", Long.toString(ids.get(0)), inAnHour.toString(), "--reason", "web edition",
                "--zone", "Europe/Paris");
        assertThat(set.code()).as(set.err()).isZero();
        assertThat(set.out().strip()).startsWith("Article " + ids.get(0) + " is due " + DueCommand.shown(inAnHour, PARIS) + ", in ")
                .endsWith("(it was none).");
        assertThat(due(ids.get(0))).isEqualTo(inAnHour);

        String parisWall = inAnHour.plus(Duration.ofMinutes(30)).atZone(PARIS).toLocalDateTime().toString().replace('T', ' ');
        assertThat(cli.run("due", "set", Long.toString(ids.get(1)), parisWall, "--reason", "print", "--zone", "Europe/Paris")
                .code()).isZero();
        assertThat(due(ids.get(1))).as("a wall-clock time in Paris").isEqualTo(inAnHour.plus(Duration.ofMinutes(30)));
        assertThat(cli.run("due", "set", Long.toString(ids.get(2)), Instant.now().minusSeconds(600).toString(), "--reason",
                "it was due", "--zone", "UTC").out()).contains("LATE by");
        cli.run("due", "set", Long.toString(sport), inAnHour.toString(), "--reason", "match report");

        CliRunner.Run list = cli.run("due", "list", "--desk", "news", "--zone", "America/New_York");
        assertThat(list.code()).as(list.err()).isZero();
        List<String> lines = list.out().lines().toList();
        assertThat(lines.get(0)).contains("DUE (America/New_York)", "LEFT", "ARTICLE");
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).contains("LATE by 10m").contains(Long.toString(ids.get(2)));
        assertThat(lines.get(2)).contains(DueCommand.shown(inAnHour, ZoneId.of("America/New_York"))).containsAnyOf("in 59m", "in 1h00m");
        assertThat(list.out()).doesNotContain("Sport");

        JsonNode json = new ObjectMapper().readTree(cli.run("due", "list", "--json", "--within", "2h").out());
        assertThat(json.get("articles")).hasSize(4);
        JsonNode first = json.get("articles").get(0);
        assertThat(first.get("late").asBoolean()).isTrue();
        assertThat(first.get("secondsLeft").asLong()).isBetween(-660L, -590L);
        assertThat(json.get("articles").get(1).get("dueAt").asText()).isEqualTo(inAnHour.toString());

        assertThat(cli.run("due", "set", Long.toString(ids.get(0)), "none", "--reason", "no deadline after all").out())
                .contains("has no due time now");
        assertThat(due(ids.get(0))).isNull();
    }

    @Test
    void anEditorCannotSetADueTimeAndAMistakeChangesNothing() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        String account = "due_cli_ed";
        AccountAdministration accounts = new AccountAdministration(dsl);
        accounts.createAccount(account, "ed-due-secret-1".toCharArray());
        try {
            CliRunner.Run refused = cli.as(account, "ed-due-secret-1").run("due", "set", Long.toString(id), "18:00", "--reason", "mine");
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err().strip()).startsWith("copydesk: ").doesNotContain("\n");
            assertThat(cli.as(account, "ed-due-secret-1").run("due", "list").code()).as("an editor may read them").isZero();
        } finally {
            accounts.dropAccount(account);
        }
        assertThat(cli.run("due", "set", Long.toString(id), "tonight", "--reason", "x").code()).isEqualTo(2);
        assertThat(cli.run("due", "set", Long.toString(id), "18:00", "--reason", "x", "--zone", "Mars/Olympus").code()).isEqualTo(2);
        CliRunner.Run noReason = cli.run("due", "set", Long.toString(id), "18:00", "--reason", " ");
        assertThat(noReason.err().strip()).isEqualTo("copydesk: Changing a due time needs a reason.");
        assertThat(due(id)).isNull();
    }

    /** Wall-clock times either side of a daylight-saving change, in the caller's zone. */
    @Test
    void aLocalTimeIsReadInTheCallersZoneAcrossDaylightSavingChanges() {
        assertThat(DueCommand.parse("2026-03-28 18:00", PARIS, LocalDate.now())).isEqualTo(Instant.parse("2026-03-28T17:00:00Z"));
        assertThat(DueCommand.parse("2026-03-29 18:00", PARIS, LocalDate.now())).as("summer time")
                .isEqualTo(Instant.parse("2026-03-29T16:00:00Z"));
        assertThat(DueCommand.parse("2026-03-29 02:30", PARIS, LocalDate.now())).as("skipped: moved on by the gap")
                .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
        assertThat(DueCommand.parse("2026-10-25 02:30", PARIS, LocalDate.now())).as("repeated: the earlier one")
                .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(DueCommand.parse("21:30", PARIS, LocalDate.of(2026, 11, 29))).isEqualTo(Instant.parse("2026-11-29T20:30:00Z"));
        assertThat(DueCommand.parse("2026-11-29T18:00:00-05:00", PARIS, LocalDate.now())).isEqualTo(Instant.parse("2026-11-29T23:00:00Z"));
        assertThat(DueCommand.shown(Instant.parse("2026-10-25T00:30:00Z"), PARIS)).isEqualTo("2026-10-25 02:30 CEST");
        assertThat(DueCommand.shown(Instant.parse("2026-10-25T01:30:00Z"), PARIS)).isEqualTo("2026-10-25 02:30 CET");
    }
}
