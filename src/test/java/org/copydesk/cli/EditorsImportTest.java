package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.Editor;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code copydesk editors import}: a newsroom's people from one file in one run, every line checked
 * before anyone is made, each password made handed over once.
 */
@ExtendWith(DatabaseExtension.class)
class EditorsImportTest {

    private final TestDatabase db;
    private final CliRunner cli;
    /** Account names are the server's, shared by every test database: unique per run. */
    private final String p = "ei" + UUID.randomUUID().toString().substring(0, 5);
    @TempDir
    Path dir;

    EditorsImportTest(TestDatabase db) {
        this.db = db;
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(db.dsl());
        Newsroom n = new Newsroom(db.dsl());
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
    }

    @AfterEach
    void dropAccounts() {
        for (String who : List.of("ann", "bo", "cy", "dee")) {
            db.dsl().execute("drop user if exists '" + p + who + "'@'%'");
        }
    }

    @Test
    void aFileWithWrongLinesChangesNothingAndSaysWhichLinesAndWhy() throws Exception {
        Path file = file("name,display_name,role,capacity,desks,sign_in",
                p + "ann,Ann Lee,editor,5,news,password",
                p + "bo,Bo,chief,5,news,password",
                p + "cy,Cy,editor,5,news culture,password",
                p + "ann,Ann again,editor,5,news,password",
                "bad'name,Bad,editor,5,news,password",
                p + "dee,Dee,editor,five,news,password",
                p + "dee2,Dee,editor,5,news,email");

        CliRunner.Run run = cli.run("editors", "import", file.toString());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("people.csv line 3: role 'chief' is not editor, supervisor or admin",
                "people.csv line 4: no desk culture (copydesk desks list)", "people.csv line 5: " + p + "ann is on an earlier line too",
                "people.csv line 6: 'bad'name' is not a sign-in name", "people.csv line 7: capacity 'five' is not a whole number",
                "people.csv line 8: sign_in 'email' is not password, directory or none",
                "Nothing was changed: 6 line(s) of people.csv to put right first.");
        assertThat(new Newsroom(db.dsl()).editors()).isEmpty();
        assertThat(db.dsl().fetchOne("select count(*) from mysql.user where user like '" + p + "%'").get(0, Integer.class)).isZero();
    }

    @Test
    void everyoneIsMadeInOneRunEachPasswordShownOnceAndASecondRunSkipsThem() throws Exception {
        Path file = file("name,display_name,role,capacity,desks,sign_in",
                p + "ann,\"Lee, Ann\",editor,4,news sport,password",
                p + "bo,Bo,supervisor,,news,",
                p + "cy,,,,,none");

        CliRunner.Run dry = cli.run("editors", "import", file.toString(), "--dry-run");
        assertThat(dry.out()).contains("would add " + p + "ann (Lee, Ann, editor, capacity 4, desks news, sport, a password made now)");
        assertThat(new Newsroom(db.dsl()).editors()).as("a dry run changes nothing").isEmpty();

        CliRunner.Run run = cli.run("editors", "import", file.toString());
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("added " + p + "bo (Bo, supervisor, capacity 5, desks news, a password made now)",
                "added " + p + "cy (" + p + "cy, editor, capacity 5, desks none, no account made)", "Passwords (shown once");
        Editor ann = new Newsroom(db.dsl()).editor(p + "ann").orElseThrow();
        assertThat(ann.displayName()).isEqualTo("Lee, Ann");
        assertThat(ann.desks()).containsExactlyInAnyOrder("news", "sport");
        assertThat(new Newsroom(db.dsl()).editor(p + "bo").orElseThrow().role()).isEqualTo(Role.SUPERVISOR);

        Matcher shown = Pattern.compile(p + "bo\\s+Bo\\s+(\\S+)").matcher(run.out());
        assertThat(shown.find()).as(run.out()).isTrue();
        try (Database asBo = Database.open(db.endpoint().accountUrl(db.name()), p + "bo", shown.group(1).toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
            assertThat(asBo.dsl().fetchOne("select current_user()").get(0, String.class)).startsWith(p + "bo@");
        }

        CliRunner.Run again = cli.run("editors", "import", file.toString());
        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("skipped " + p + "ann (line 2): one of the newsroom's people already")
                .doesNotContain("Passwords");
    }

    @Test
    void thePasswordsGoToANewFileOfTheCallersAlone() throws Exception {
        Path file = file("name", p + "ann", p + "bo");
        Path passwords = dir.resolve("passwords.csv");

        CliRunner.Run run = cli.run("editors", "import", file.toString(), "--passwords-to", passwords.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("The 2 password(s) made are in " + passwords).doesNotContain("Passwords (shown once");
        assertThat(Files.getPosixFilePermissions(passwords)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readAllLines(passwords)).hasSize(3).first().isEqualTo("name,display_name,password");

        CliRunner.Run refused = cli.run("editors", "import", file.toString(), "--passwords-to", passwords.toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("exists already: the passwords go to a new file only");
    }

    @Test
    void directoryPeopleOnAServerWithoutPamAreRefusedBeforeAnyoneIsMade() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(
                db.dsl().fetchOne("select count(*) from information_schema.plugins where plugin_name = 'pam'"
                        + " and plugin_status = 'ACTIVE'").get(0, Integer.class) > 0, "this server signs people in with PAM");
        CliRunner.Run run = cli.run("editors", "import", file("name,sign_in", p + "ann,password", p + "dee,directory").toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("cannot sign people in with the directory");
        assertThat(new Newsroom(db.dsl()).editors()).isEmpty();
    }

    private Path file(String... lines) throws Exception {
        return Files.writeString(dir.resolve("people.csv"), String.join("\n", lines) + "\n");
    }
}
