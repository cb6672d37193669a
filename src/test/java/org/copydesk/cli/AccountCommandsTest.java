package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Newsroom;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin's account commands refuse before they change anything: a password too short, a
 * migration by an account that does not own the database, a password written into the URL.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccountCommandsTest {

    private final TestDatabase db;
    /** Account names are the server's, not the database's: unique per run. */
    private final String prefix = "ac" + UUID.randomUUID().toString().substring(0, 6);
    private final List<String> made = new ArrayList<>();

    AccountCommandsTest(TestDatabase db) {
        this.db = db;
    }

    @BeforeAll
    void newsroom() {
        DemoNewsroom.loadIfEmpty(db.dsl(), new Newsroom(db.dsl()));
    }

    @AfterAll
    void dropAccounts() {
        AccountAdministration accounts = new AccountAdministration(db.dsl());
        made.forEach(accounts::dropAccount);
    }

    record Run(int code, String out, String err) {
    }

    /** As the database's owner (the test account), the password in the environment; {@code stdin} what is typed. */
    private Run run(String stdin, Map<String, String> extraEnvironment, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--db-url") && !extraEnvironment.containsKey(DatabaseConfigResolver.URL_ENV)) {
            all.addAll(List.of("--db-url", db.url(), "--db-user", db.endpoint().user()));
        }
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, db.endpoint().password());
        environment.putAll(extraEnvironment);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        InputStream before = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            int code = Cli.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), environment);
            return new Run(code, out.toString(), err.toString());
        } finally {
            System.setIn(before);
        }
    }

    private Run run(String... args) {
        return run("", Map.of(), args);
    }

    private String person(String suffix) {
        String name = prefix + suffix;
        made.add(name);
        return name;
    }

    @Test
    void aPasswordTooShortIsRefusedBeforeThePersonIsMade() {
        String name = person("short");
        Run refused = run("seven77\n", Map.of(), "editors", "add", name, "--password-stdin");

        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).isEqualTo("copydesk: A password has at least 8 characters; nothing was changed.");
        assertThat(new Newsroom(db.dsl()).editor(name)).as("no half-made person").isEmpty();

        Run added = run("eight888\n", Map.of(), "editors", "add", name, "--password-stdin");
        assertThat(added.code()).as(added.err()).isZero();
        assertSignsIn(name, "eight888");
    }

    @Test
    void anObviousPasswordIsRefusedInOneLineBeforeAnythingIsMade() {
        String name = prefix + "obvious"; // never made: not among those dropped after
        Run refused = run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "Password1!"), "editors", "add", name);
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).isEqualTo("copydesk: That is one of the commonest passwords (or one with digits added);"
                + " choose another of at least 8 characters. Nothing was changed.");
        assertThat(new Newsroom(db.dsl()).editor(name)).as("no half-made person").isEmpty();
        Run own = run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "Ruth.Obvious-2026"), "editors", "add", name,
                "--display-name", "Ruth Obvious");
        assertThat(own.err().strip()).isEqualTo("copydesk: A password may not be the account's or the person's name, with digits"
                + " added or not; choose another. Nothing was changed.");
        assertThat(new Newsroom(db.dsl()).editor(name)).as("no half-made person").isEmpty();
        Run integration = run("aaaaaaaaaaaaaaaa\n", Map.of(), "integrations", "add", prefix + "feed", "--kind", "feed_reader",
                "--password-stdin");
        assertThat(integration.err().strip()).isEqualTo("copydesk: A password may not be one character repeated; choose another."
                + " Nothing was changed.");
    }

    @Test
    void aPasswordAskedForButNotTypedIsRefusedAndOneInTheEnvironmentIsTaken() {
        String name = person("empty");
        Run refused = run("", Map.of(), "editors", "add", name, "--password-stdin");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("none was typed; nothing was changed");
        assertThat(refused.out()).doesNotContain("its password is");
        assertThat(new Newsroom(db.dsl()).editor(name)).as("nobody made").isEmpty();

        Run added = run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "from-the-env-9"), "editors", "add", name);
        assertThat(added.code()).as(added.err()).isZero();
        assertThat(added.out()).doesNotContain("its password is");
        assertSignsIn(name, "from-the-env-9");
    }

    @Test
    void aScriptGetsExactlyThePasswordItMeansAndStandardInputIsReadOnlyWhenAskedTo() {
        // the loop: while read name pw; do COPYDESK_NEW_PASSWORD=$pw copydesk editors add $name --password; done
        String name = person("loop");
        Map<String, String> env = Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "pw-loop-x9k2");
        Run both = run("ed02 pw-ed02-x9k2\n", env, "editors", "add", name, "--password");
        assertThat(both.code()).isEqualTo(1);
        assertThat(both.err().strip()).isEqualTo("copydesk: Give the new password one way: --password (asked at the terminal),"
                + " --password-stdin or COPYDESK_NEW_PASSWORD; nothing was changed.");
        assertThat(both.out()).as("no prompt on standard output").isEmpty();
        Run noTerminal = run("ed02 pw-ed02-x9k2\n", Map.of(), "editors", "add", name, "--password");
        assertThat(noTerminal.err()).contains("--password asks at a terminal, and there is none here");
        assertThat(new Newsroom(db.dsl()).editor(name)).as("nobody made from a line of standard input").isEmpty();

        Run fromStdin = run("the-first-line-7\r\nsecond line\n", Map.of(), "editors", "add", name, "--password-stdin");
        assertThat(fromStdin.code()).as(fromStdin.err()).isZero();
        assertSignsIn(name, "the-first-line-7");
    }

    @Test
    void aDirectoryAccountHasNoPasswordAndIsRefusedWhereTheServerCannot() {
        String name = prefix + "dir"; // never made here
        Run both = run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "pw-dir-x9k2"), "editors", "add", name, "--directory");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--directory accounts have no password of Copydesk's");
        if (System.getenv("COPYDESK_TEST_DIRECTORY_URL") == null) {
            Run refused = run("editors", "add", name, "--directory");
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err()).contains("cannot sign people in with the directory").contains("nothing was changed");
            assertThat(new Newsroom(db.dsl()).editor(name)).as("no person without an account").isEmpty();
        }
    }

    @Test
    void setPasswordCompletesAPersonWhoHasNoAccount() {
        String name = person("half");
        assertThat(run("editors", "add", name, "--no-account").code()).isZero();

        Run set = run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "a-new-secret-1"), "editors", "set-password", name);

        assertThat(set.code()).as(set.err()).isZero();
        assertThat(set.out()).contains("had no database account; created it");
        assertSignsIn(name, "a-new-secret-1");
        assertThat(run("", Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, "short"), "editors", "set-password", name).err())
                .contains("at least 8 characters");
        assertSignsIn(name, "a-new-secret-1");
    }

    @Test
    void migrateAsASupervisorIsRefusedUpFrontInOneLine() {
        String name = person("sup");
        Run added = run("editors", "add", name, "--role", "supervisor");
        String password = added.out().replaceAll("(?s).*its password is (\\S+) .*", "$1").strip();

        Run migrate = run("", Map.of(DatabaseConfigResolver.PASSWORD_ENV, password), "db", "migrate",
                "--db-url", db.endpoint().accountUrl(db.name()), "--db-user", name);

        assertThat(migrate.code()).isEqualTo(1);
        assertThat(migrate.out()).as("nothing done, nothing said on stdout").isEmpty();
        assertThat(migrate.err()).hasLineCount(1).contains("'" + name + "' is a supervisor of the newsroom and may not migrate",
                "the database's owner", "CREATE USER").doesNotContain("execute command denied");

        Run owner = run("db", "migrate");
        assertThat(owner.code()).as(owner.err()).isZero();
        assertThat(owner.out()).contains("Schema at version");
    }

    @Test
    void aPasswordInTheUrlIsRefusedSayingWhereAPasswordGoes() {
        String hostPort = db.endpoint().host() + ":" + db.endpoint().port();
        String hostAndPort = "host=" + db.endpoint().host() + ",port=" + db.endpoint().port();
        String pw = db.endpoint().password();
        for (String url : List.of(db.url() + "&password=" + pw, db.url() + "&PassWord2=" + pw, db.url() + "&pass%77ord=" + pw,
                db.url().replace("jdbc:mysql://", "jdbc:mysql://" + db.endpoint().user() + ":secret@"),
                db.url().replace(hostPort, "address=(host=" + db.endpoint().host() + ")(port=" + db.endpoint().port()
                        + ")(password=" + pw + ")"),
                db.url().replace(hostPort, "(" + hostAndPort + ",password=" + pw + ")"),
                db.url().replace(hostPort, "[(" + hostAndPort + ",Password=" + pw + ")]"))) {
            Run refused = run("status", "--db-url", url);
            assertThat(refused.code()).as(url).isEqualTo(1);
            assertThat(refused.err()).as(url).hasLineCount(1).contains("--db-url contains a password", "--db-password",
                    DatabaseConfigResolver.PASSWORD_ENV).doesNotContain(db.endpoint().password() + " ");
        }
        Run fromEnvironment = run("", Map.of(DatabaseConfigResolver.URL_ENV, db.url() + "&password=x"), "status",
                "--db-user", db.endpoint().user());
        assertThat(fromEnvironment.err()).contains(DatabaseConfigResolver.URL_ENV + " contains a password");
    }

    private void assertSignsIn(String name, String password) {
        try (Database own = Database.open(db.endpoint().accountUrl(db.name()), name, password.toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
            assertThat(own.dsl().fetchOne("select count(*) from article").get(0, Integer.class)).isPositive();
        }
        assertThatThrownBy(() -> Database.open(db.endpoint().accountUrl(db.name()), name, "not-it-at-all".toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null).close()).as("a wrong password").isNotNull();
    }
}
