package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Signing in with the newsroom's directory account: the database server identifies the person's
 * account through PAM, which asks the directory (LDAP), so the directory's password is the one they
 * type and Copydesk keeps none. The directory parts run where {@code .ci/directory.sh} made one
 * (slapd with dxdana, dxeli, a disabled dxfay and dxgus outside the copydesk group; Debian's MariaDB with
 * auth_pam and TLS): COPYDESK_TEST_DIRECTORY_URL is set there. Everywhere else the server cannot, and
 * says so in one line with nothing changed.
 */
@ExtendWith(DatabaseExtension.class)
class DirectorySignInTest {

    private static final List<String> PEOPLE = List.of("dxdana", "dxeli", "dxfay", "dxgus");

    private final TestDatabase db;
    private final DSLContext root;
    private final AccountAdministration accounts;

    DirectorySignInTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.accounts = new AccountAdministration(root);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(root);
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        for (String person : PEOPLE) {
            // server accounts outlive a test's database
            root.execute("drop user if exists '" + person + "'@'%'");
            n.addEditor(person, person.substring(2, 3).toUpperCase() + person.substring(3), Role.EDITOR, 3, List.of("news"));
        }
        Fixtures.articles(root, "news", 6, 3, -60);
    }

    @AfterEach
    void dropAccounts() {
        for (String person : PEOPLE) {
            root.execute("drop user if exists '" + person + "'@'%'");
        }
    }

    @Test
    void aServerWithoutThePamPluginRefusesInOneLineAndChangesNothing() {
        assumeTrue(!directory(), "this server signs people in through the directory");
        assertThatThrownBy(() -> accounts.createDirectoryAccount("dxdana"))
                .hasMessageContaining("cannot sign people in with the directory")
                .hasMessageContaining("docs/install.md");
        assertThat(root.fetchOne("select count(*) from mysql.user where user = 'dxdana'").get(0, Integer.class)).isZero();
    }

    @Test
    void aPersonSignsInWithTheDirectoryPasswordOverTlsAndReviews() {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        accounts.createDirectoryAccount("dxdana");
        try (Database dana = Database.open(tlsUrl(), "dxdana", "dxdana-directory-1".toCharArray(), "REQUIRED",
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            ReviewSession session = new ReviewSession(dana, ReviewSession.Options.defaults());
            assertThat(session.queue().claim("dxdana").articles()).as("an operation as herself").hasSize(3);
        }
        assertThat(root.fetchOne("select count(*) from article where locked_by = 'dxdana'").get(0, Integer.class)).isEqualTo(3);
    }

    @Test
    void aWrongPasswordADisabledPersonAndOneOutsideTheGroupAreRefused() {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        for (String person : List.of("dxdana", "dxfay", "dxgus")) {
            accounts.createDirectoryAccount(person);
        }
        assertThat(refusal("dxdana", "not-the-directory-password")).contains("refused the user name or password");
        assertThat(refusal("dxfay", "dxfay-directory-1")).as("disabled in the directory").contains("refused the user name or password");
        assertThat(refusal("dxgus", "dxgus-directory-1")).as("not in the copydesk group").contains("refused the user name or password");
    }

    @Test
    void whileTheDirectoryDoesNotAnswerSignInIsRefusedInOneLineAndThoseSignedInKeepWorking() throws Exception {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        accounts.createDirectoryAccount("dxdana");
        accounts.createDirectoryAccount("dxeli");
        long slapd = Long.parseLong(Files.readString(Path.of(System.getenv("COPYDESK_TEST_DIRECTORY_PID_FILE"))).trim());
        try (Database dana = Database.open(tlsUrl(), "dxdana", "dxdana-directory-1".toCharArray(), "REQUIRED",
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            ReviewSession session = new ReviewSession(dana, ReviewSession.Options.defaults());
            session.queue().claim("dxdana");
            signal("STOP", slapd);
            try {
                long started = System.nanoTime();
                // the server holds the handshake while PAM waits for the directory: refused once nslcd gives up,
                // or given up by the client first (its connect timeout) when the machine is slow; one line either way
                assertThat(refusal("dxeli", "dxeli-directory-1")).containsAnyOf("refused the user name or password",
                        "Cannot reach the database").doesNotContain("\n");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("refused within the directory's time limit")
                        .isLessThan(Duration.ofSeconds(20));
                List<HeldArticle> held = session.queue().held("dxdana");
                assertThat(session.queue().renew("dxdana", held).renewed()).as("dana, signed in before, keeps working").hasSize(3);
            } finally {
                signal("CONT", slapd);
            }
        }
    }

    private static void signal(String which, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + which, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }

    @Test
    void theDirectoryPasswordIsNeverSentWithoutTls() {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        accounts.createDirectoryAccount("dxeli");
        String plain = db.endpoint().accountUrl(db.name());
        assertThat(plain).contains("sslMode=DISABLED");
        assertThat(refusalAt(plain, "dxeli", "dxeli-directory-1", "DISABLED"))
                .contains("directory password").contains("TLS");
    }

    @Test
    void aNameThatIsNotAnAccountNameIsRefusedBeforeAnyStatement() {
        List<String> names = List.of("x' IDENTIFIED BY 'y", "dxdana@%", "dx%dana", "ŧom");
        for (String name : names) {
            assertThatThrownBy(() -> accounts.createDirectoryAccount(name)).as(name).isInstanceOf(RuntimeException.class);
        }
        // (other classes on a shared server make accounts of their own: only these names count)
        assertThat(root.fetchOne("select count(*) from mysql.user where user in (?, ?, ?, ?) or user = 'x'", names.toArray())
                .get(0, Integer.class)).isZero();
    }

    private boolean directory() {
        return System.getenv("COPYDESK_TEST_DIRECTORY_URL") != null;
    }

    private String tlsUrl() {
        return db.endpoint().accountUrl(db.name()).replace("sslMode=DISABLED", "sslMode=REQUIRED");
    }

    private String refusal(String user, String password) {
        return refusalAt(tlsUrl(), user, password, "REQUIRED");
    }

    private String refusalAt(String url, String user, String password, String sslMode) {
        try (Database d = Database.open(url, user, password.toCharArray(), sslMode, DataSources.PoolSize.of(1),
                Database.SchemaAction.NONE, null)) {
            throw new AssertionError(user + " signed in");
        } catch (DatabaseSetupException e) {
            return e.getMessage();
        }
    }
}
