package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code copydesk import} as automation runs it: exit codes it can rely on, and --json it can parse. */
@ExtendWith(DatabaseExtension.class)
class ImportCommandTest {

    private final DSLContext dsl;
    private final CliRunner cli;
    @TempDir
    Path dir;

    ImportCommandTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(IMPORT_QUARANTINE).execute();
        Fixtures.emptyNewsroom(dsl);
        Fixtures.desk(dsl, "news");
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String row(String id, String body) {
        return "{\"external_id\": \"" + id + "\", \"desk\": \"news\", \"title\": \"Title " + id + "\", \"body\": \"" + body + "\"}\n";
    }

    @Test
    void usageMistakesEndWithTwoAndOneLine() {
        for (String[] args : List.of(new String[] {"import"}, new String[] {"import", "a.csv", "--watch", "."},
                new String[] {"import", "a.csv", "--interval", "soon"})) {
            CliRunner.Run run = cli.run(args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE.code());
            assertThat(run.err().lines().findFirst().orElseThrow()).startsWith("copydesk: ").doesNotContain("Exception");
        }
        assertThat(cli.run("import").err()).contains("Give the files to import, or --watch DIR (not both).",
                "Try 'copydesk import --help'");
    }

    @Test
    void exitCodesSayWhatHappenedToTheRows() throws Exception {
        Path clean = file("clean.ndjson", row("E-1", "One.") + row("E-2", "Two."));
        assertThat(cli.run("import", clean.toString()).code()).isEqualTo(ExitCode.OK.code());
        assertThat(cli.run("import", clean.toString()).code()).as("an unchanged re-import changes nothing, rightly")
                .isEqualTo(ExitCode.OK.code());

        Path bad = file("bad.ndjson", row("E-3", "Three.") + "{\"external_id\": \"E-4\"}\n");
        assertThat(cli.run("import", bad.toString()).code()).isEqualTo(ExitCode.ROWS_KEPT_ASIDE.code());

        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.approved).where(ARTICLE.EXTERNAL_ID.eq("E-1")).execute();
        Path changed = file("changed.ndjson", row("E-1", "One, rewritten after it was approved."));
        CliRunner.Run decided = cli.run("import", changed.toString());
        assertThat(decided.code()).as("a new text for a decided article changed nothing: not 0").isEqualTo(ExitCode.ALREADY_DECIDED.code());
        assertThat(decided.out()).contains("already decided; not changed (import with --reopen to review it again)");
        assertThat(cli.run("import", "--reopen", changed.toString()).code()).isEqualTo(ExitCode.OK.code());

        Path latin = dir.resolve("latin.csv");
        Files.write(latin, "external_id,desk,title,body\nL-1,news,Caf\u00e9,b\n".getBytes(StandardCharsets.ISO_8859_1));
        Path after = file("after.ndjson", row("E-5", "Five."));
        CliRunner.Run mixed = cli.run("import", latin.toString(), "/nonexistent/file.csv", after.toString());
        assertThat(mixed.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(mixed.err().lines().toList()).hasSize(2).allMatch(l -> l.startsWith("copydesk: "));
        assertThat(mixed.err()).contains("latin.csv: the file is not UTF-8: it looks like Latin-1 or Windows-1252",
                "/nonexistent/file.csv: no such file");
        assertThat(dsl.fetchExists(ARTICLE, ARTICLE.EXTERNAL_ID.eq("E-5"))).as("a failed file does not stop the others").isTrue();
    }

    @Test
    void jsonIsOneObjectPerFileThatParses() throws Exception {
        Path good = file("good.ndjson", row("J-1", "One.") + row("J-2", "Two."));
        Path bad = file("bad.csv", "external_id,desk,title,body\nJ-3,nowhere,T,B\n");

        CliRunner.Run run = cli.run("import", "--json", good.toString(), bad.toString(), dir.resolve("missing.json").toString());

        assertThat(run.code()).isEqualTo(ExitCode.FAILED.code());
        List<JsonNode> files = run.json();
        assertThat(files).hasSize(3);
        JsonNode first = files.get(0);
        assertThat(first.get("file").asText()).isEqualTo(good.toString());
        assertThat(first.get("failed").asBoolean()).isFalse();
        assertThat(first.get("reason").isNull()).isTrue();
        assertThat(first.get("importId").asText()).startsWith("imp-");
        assertThat(first.get("format").asText()).isEqualTo("json_lines");
        assertThat(first.get("rowsRead").asLong()).isEqualTo(2);
        assertThat(first.get("imported").asLong()).isEqualTo(2);
        for (String field : List.of("alreadyPresent", "revised", "alreadyDecided", "keptAside", "keptAsideBefore", "moreProblems")) {
            assertThat(first.get(field).asLong()).as(field).isZero();
        }
        assertThat(first.get("problems").isArray()).isTrue();
        assertThat(first.get("revisions").isArray()).isTrue();
        assertThat(first.get("warnings").isArray()).isTrue();
        assertThat(first.get("bytesRead").asLong()).isEqualTo(Files.size(good));
        assertThat(first.get("cancelled").asBoolean()).isFalse();
        assertThat(first.get("seconds").isNumber()).isTrue();

        JsonNode second = files.get(1);
        assertThat(second.get("keptAside").asLong()).isEqualTo(1);
        assertThat(second.get("problems").get(0).get("line").asLong()).isEqualTo(2);
        assertThat(second.get("problems").get(0).get("reason").asText()).startsWith("desk \"nowhere\" does not exist");

        JsonNode third = files.get(2);
        assertThat(third.get("failed").asBoolean()).isTrue();
        assertThat(third.get("reason").asText()).startsWith("no such file: ");

        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.rejected).where(ARTICLE.EXTERNAL_ID.eq("J-1")).execute();
        JsonNode revision = cli.run("import", "--json", file("again.ndjson", row("J-1", "New.") + row("J-2", "New too.")).toString())
                .onlyJson();
        assertThat(revision.get("revisions")).hasSize(2);
        assertThat(revision.get("revisions").get(0).get("outcome").asText()).isEqualTo("decided");
        assertThat(revision.get("revisions").get(1).get("outcome").asText()).isEqualTo("revised");
        assertThat(revision.get("revisions").get(1).get("revision").asInt()).isEqualTo(2);
        assertThat(revision.get("revisions").get(1).get("externalId").asText()).isEqualTo("J-2");
        assertThat(revision.get("revisions").get(1).get("articleId").asLong()).isPositive();
    }

    @Test
    void helpListsTheExitCodesOfEachCommand() {
        assertThat(cli.run("import", "--help").out()).contains("Exit codes:", "3   the files were read, but some rows were kept aside",
                "5   no row was kept aside, but some rows brought a new text");
        assertThat(cli.run("waiting", "--help").out()).contains("4   some article has waited").doesNotContain("kept aside");
        assertThat(cli.run("quarantine", "list", "--help").out()).contains("Exit codes:", "2   the command line is wrong");
    }
}
