package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copydesk quarantine list|show|requeue|dismiss}, run by a supervisor's own database account:
 * what the dashboard's Quarantine tab does, through the same database operations (which record who).
 */
@ExtendWith(DatabaseExtension.class)
class QuarantineCommandTest {

    /**
     * The supervisor's account. Accounts are the server's, not a database's: on a server the suite
     * shares, a demo newsroom's "sue" restored by another class (BackupRestoreOnServerTest regrants the
     * accounts its newsroom's people have) got rights on that class's database, and this class could
     * no longer drop it. So a name of this class's own.
     */
    private static final String SUE = "qc_sue";
    private static final String SUE_PASSWORD = "sue-Quarantine-2026";
    private final DSLContext dsl;
    private final CliRunner owner;
    private final CliRunner sue;
    @TempDir
    Path dir;

    QuarantineCommandTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.owner = new CliRunner(db);
        this.sue = owner.as(SUE, SUE_PASSWORD);
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(IMPORT_QUARANTINE).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        new AccountAdministration(dsl).createAccount(SUE, SUE_PASSWORD.toCharArray());
    }

    @AfterEach
    void dropAccount() {
        new AccountAdministration(dsl).dropAccount(SUE);
    }

    private List<Long> entries() {
        return dsl.select(IMPORT_QUARANTINE.ID).from(IMPORT_QUARANTINE).where(IMPORT_QUARANTINE.RESOLVED_AT.isNull())
                .orderBy(IMPORT_QUARANTINE.LINE_NUMBER).fetch(IMPORT_QUARANTINE.ID);
    }

    @Test
    void aSupervisorListsShowsRequeuesAndDismissesRowsImportsKeptAside() throws Exception {
        Path file = Files.writeString(dir.resolve("wire.csv"), """
                external_id,desk,title,body
                Q-1,culture,Opera opens,The season starts.
                Q-2,news,No body here,
                Q-3,news,,A row without a title
                Q-4,news,Fine,Fine body.
                """);
        assertThat(sue.run("import", file.toString()).code()).isEqualTo(ExitCode.ROWS_KEPT_ASIDE.code());
        List<Long> ids = entries();
        assertThat(ids).hasSize(3);

        CliRunner.Run list = sue.run("quarantine", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("3 row(s) kept aside by imports wait:", "wire.csv", "desk \"culture\" does not exist",
                "No article is in quarantine.");

        JsonNode json = sue.run("quarantine", "list", "--json").onlyJson();
        assertThat(json.get("openRows").asInt()).isEqualTo(3);
        assertThat(json.get("rows")).hasSize(3);
        JsonNode first = json.get("rows").get(0);
        assertThat(first.get("entry").asLong()).isEqualTo(ids.get(0));
        assertThat(first.get("line").asLong()).isEqualTo(2);
        assertThat(first.get("rawText").asText()).isEqualTo("external_id,desk,title,body\nQ-1,culture,Opera opens,The season starts.");
        assertThat(first.get("keptAsideAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(json.get("articles")).isEmpty();

        // the cause fixed (the desk added): requeued as it was kept
        Fixtures.desk(dsl, "culture");
        CliRunner.Run requeued = sue.run("quarantine", "requeue", Long.toString(ids.get(0)));
        assertThat(requeued.code()).as(requeued.err()).isZero();
        assertThat(requeued.out()).startsWith("Entry #" + ids.get(0) + " is now article ");
        assertThat(dsl.fetchExists(LEASE_EVENT, LEASE_EVENT.ACTION.eq("import").and(LEASE_EVENT.ACTOR.eq(SUE))))
                .as("the history names who requeued it").isTrue();

        // shown as a JSON object to correct, corrected, requeued from the file
        String template = sue.run("quarantine", "show", Long.toString(ids.get(1))).out();
        assertThat(template).contains("\"external_id\" : \"Q-2\"", "\"body\" : \"\"");
        assertThat(sue.run("quarantine", "requeue", Long.toString(ids.get(1))).err())
                .contains("Entry #" + ids.get(1) + " is still refused: body is empty. Correct it (copydesk quarantine show "
                        + ids.get(1) + ")");
        Path fixed = Files.writeString(dir.resolve("fixed.json"), template.replace("\"body\" : \"\"", "\"body\" : \"Now with a body.\""));
        JsonNode done = sue.run("quarantine", "requeue", Long.toString(ids.get(1)), "--corrected", fixed.toString(), "--json")
                .onlyJson();
        assertThat(done.get("results").get(0).get("outcome").asText()).isEqualTo("imported");
        assertThat(dsl.select(ARTICLE.BODY).from(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq("Q-2")).fetchOne(ARTICLE.BODY))
                .isEqualTo("Now with a body.");

        CliRunner.Run dismissed = sue.run("quarantine", "dismiss", Long.toString(ids.get(2)), "99999");
        assertThat(dismissed.code()).as("one of them was not open").isEqualTo(ExitCode.FAILED.code());
        assertThat(dismissed.out()).contains("Entry #" + ids.get(2) + " is dismissed.");
        assertThat(dismissed.err().strip())
                .isEqualTo("copydesk: There is no open entry #99999 (dealt with already, or never kept aside).");
        assertThat(entries()).isEmpty();
        assertThat(sue.run("quarantine", "list").out()).contains("No row kept aside by an import is waiting.");
    }

    @Test
    void dismissingAWholeImportAndRequeueingAQuarantinedArticle() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.ndjson"), "{\"external_id\": \"B-1\"}\n{\"external_id\": \"B-2\"}\n");
        String importId = sue.run("import", "--json", file.toString()).onlyJson().get("importId").asText();
        CliRunner.Run all = sue.run("quarantine", "dismiss", "--import", importId, "--json");
        assertThat(all.code()).isZero();
        assertThat(all.onlyJson().get("results")).hasSize(2).allMatch(r -> r.get("outcome").asText().equals("dismissed"));

        long article = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.quarantined).set(ARTICLE.DECISION_NOTE, "Unreadable scan")
                .set(ARTICLE.ATTEMPTS, 3).where(ARTICLE.ID.eq(article)).execute();
        assertThat(sue.run("quarantine", "list").out()).contains("1 article(s) in quarantine:", "Unreadable scan");
        JsonNode listed = sue.run("quarantine", "list", "--json").onlyJson().get("articles").get(0);
        assertThat(listed.get("articleId").asLong()).isEqualTo(article);
        assertThat(listed.get("sentBack").asInt()).isEqualTo(3);

        CliRunner.Run back = sue.run("quarantine", "requeue", "--article", Long.toString(article), "--title", "Readable now",
                "--note", "rescanned");
        assertThat(back.code()).as(back.err()).isZero();
        assertThat(back.out()).contains("Article " + article + " is back in the queue");
        assertThat(dsl.select(ARTICLE.STATUS).from(ARTICLE).where(ARTICLE.ID.eq(article)).fetchOne(ARTICLE.STATUS))
                .isEqualTo(ArticleStatus.queued);
        assertThat(sue.run("quarantine", "requeue", "--article", Long.toString(article)).err().strip())
                .startsWith("copydesk: ").contains("not in quarantine");
    }

    @Test
    void usageMistakesEndWithTwo() {
        for (String[] args : List.of(new String[] {"quarantine", "requeue"}, new String[] {"quarantine", "requeue", "1", "--article", "2"},
                new String[] {"quarantine", "requeue", "1", "2", "--corrected", "-"}, new String[] {"quarantine", "dismiss"},
                new String[] {"quarantine", "requeue", "1", "--title", "x"}, new String[] {"quarantine", "list", "--limit", "0"})) {
            CliRunner.Run run = sue.run(args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE.code());
            assertThat(run.err()).startsWith("copydesk: ").doesNotContain("Exception");
        }
        assertThat(sue.run("quarantine", "show", "12345").err().strip())
                .isEqualTo("copydesk: There is no open entry #12345 (dealt with already, or never kept aside); copydesk quarantine"
                        + " list shows the open ones.");
    }
}
