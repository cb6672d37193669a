package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.naming.Context;
import javax.naming.directory.BasicAttribute;
import javax.naming.directory.BasicAttributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import javax.naming.directory.ModificationItem;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.DirectoryPeople;
import org.copydesk.review.DirectorySettings;
import org.copydesk.review.Newsroom;
import org.copydesk.review.PeopleSync;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
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
 * {@code copydesk people sync} against a real directory (slapd from {@code .ci/directory.sh}: dxpia,
 * dxquin and a disabled dxray in the group newsroom-sync) and Debian's MariaDB with PAM. The
 * settings file's own checks run everywhere; the rest where COPYDESK_TEST_DIRECTORY_URL is set.
 */
@ExtendWith(DatabaseExtension.class)
class PeopleSyncTest {

    private static final String BASE = "dc=newsroom,dc=example";
    /** The sync test's own group (the copydesk group is the one PAM lets in: DirectorySignInTest signs in with it). */
    private static final String SYNC_GROUP = "cn=newsroom-sync,ou=groups," + BASE;
    private static final List<String> PEOPLE = List.of("dxpia", "dxquin", "dxray", "dxhana", "x.odd");

    private final TestDatabase db;
    private final DSLContext root;
    private final CliRunner cli;
    @TempDir
    Path dir;

    PeopleSyncTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(root);
        PEOPLE.forEach(p -> root.execute("drop user if exists '" + p + "'@'%'"));
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("dxhana", "Hana by hand", Role.EDITOR, 3, List.of("news"));
        Fixtures.articles(root, "news", 8, 3, -60);
    }

    @AfterEach
    void cleanUp() throws Exception {
        PEOPLE.forEach(p -> root.execute("drop user if exists '" + p + "'@'%'"));
        if (directory()) {
            withDirectory(ctx -> {
                quietly(() -> ctx.destroySubcontext("cn=copydesk-chiefs,ou=groups," + BASE));
                quietly(() -> ctx.destroySubcontext("uid=x)(uid=*,ou=people," + BASE));
                quietly(() -> ctx.modifyAttributes(SYNC_GROUP, DirContext.REMOVE_ATTRIBUTE, new BasicAttributes("memberUid", "x)(uid=*")));
                quietly(() -> ctx.modifyAttributes(SYNC_GROUP, DirContext.ADD_ATTRIBUTE, new BasicAttributes("memberUid", "dxpia")));
            });
        }
    }

    @Test
    void settingsThatCannotBeTrustedAreRefusedBeforeAnythingIsRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("directory.secret"), "not-really");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        Path settings = settings("ldap://127.0.0.1:1/", "cn=admin," + BASE, secret, "group.copydesk = editor: news");
        CliRunner.Run open = cli.run("people", "sync", "--settings", settings.toString());
        assertThat(open.code()).isEqualTo(1);
        assertThat(open.err()).contains("is readable by others (chmod 600 it); nothing was changed");

        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        CliRunner.Run role = cli.run("people", "sync", "--settings",
                settings("ldap://127.0.0.1:1/", "cn=admin," + BASE, secret, "group.copydesk = chief: news").toString());
        assertThat(role.err()).contains("gives 'chief', not editor, supervisor or admin");

        CliRunner.Run away = cli.run("people", "sync", "--settings", settings.toString());
        assertThat(away.code()).isEqualTo(1);
        assertThat(away.err().strip()).startsWith("copydesk: The directory at ldap://127.0.0.1:1/ could not be reached")
                .endsWith("nothing was changed.").doesNotContain("\n");
        assertThat(new Newsroom(root).editors()).extracting(e -> e.id()).containsExactly("dxhana");
    }

    @Test
    void peopleFollowTheGroupsAndASecondRunChangesNothing() throws Exception {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        withDirectory(ctx -> ctx.createSubcontext("cn=copydesk-chiefs,ou=groups," + BASE, chiefs()));
        Path settings = settings(System.getenv("COPYDESK_TEST_DIRECTORY_URL"), System.getenv("COPYDESK_TEST_DIRECTORY_ADMIN"),
                Path.of(System.getenv("COPYDESK_TEST_DIRECTORY_PASSWORD_FILE")),
                "group.newsroom-sync = editor: news; stages: news/legal", "group.copydesk-chiefs = supervisor: news, sport");
        ReviewStages chain = ReviewStages.over(root);
        chain.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        chain.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, null, true, false, true));

        CliRunner.Run dry = cli.run("people", "sync", "--settings", settings.toString(), "--dry-run");
        assertThat(dry.out()).contains("would add dxpia (Pia Directory, editor, desks news)",
                "would add dxquin (Quin Directory, supervisor, desks news, sport)").doesNotContain("dxray", "dxhana");
        assertThat(new Newsroom(root).editors()).as("a dry run changes nothing").hasSize(1);

        CliRunner.Run first = cli.run("people", "sync", "--settings", settings.toString());
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("set the takers of stage news/legal to dxpia, dxquin (now nobody): done");
        assertThat(new Newsroom(root).editor("dxquin").orElseThrow().role()).isEqualTo(Role.SUPERVISOR);
        assertThat(cli.run("people", "sync", "--settings", settings.toString()).out()).startsWith("Nothing to change");
        assertThat(claimedBy("dxpia", "dxpia-directory-1")).as("pia signs in with the directory and claims").isEqualTo(5);

        withDirectory(ctx -> ctx.modifyAttributes(SYNC_GROUP, DirContext.REMOVE_ATTRIBUTE, new BasicAttributes("memberUid", "dxpia")));
        CliRunner.Run left = cli.run("people", "sync", "--settings", settings.toString());
        assertThat(left.out()).contains("suspend dxpia (in no configured group): no account, no desks, capacity 0;"
                + " 5 article(s) back to the queue", "set the takers of stage news/legal to dxquin (now dxpia, dxquin): done");
        assertThat(root.fetchOne("select count(*) from mysql.user where user = 'dxpia'").get(0, Integer.class)).isZero();
        assertThat(new Newsroom(root).editor("dxpia")).as("history keeps her name").isPresent();

        withDirectory(ctx -> ctx.modifyAttributes(SYNC_GROUP, DirContext.ADD_ATTRIBUTE, new BasicAttributes("memberUid", "dxpia")));
        assertThat(cli.run("people", "sync", "--settings", settings.toString()).out()).contains("return dxpia (editor, desks news): done");
        // the five given back when she left are kept from her (a force release keeps them from their former holder)
        assertThat(claimedBy("dxpia", "dxpia-directory-1")).as("back at work, with the other three").isEqualTo(3);
        assertThat(new Newsroom(root).editor("dxhana").orElseThrow().desks()).as("the person added by hand untouched")
                .containsExactly("news");
    }

    @Test
    void whatTheDirectoryHoldsIsNeverSyntax() throws Exception {
        assumeTrue(directory(), "no directory here (.ci/directory.sh start)");
        withDirectory(ctx -> {
            BasicAttributes odd = new BasicAttributes(true);
            BasicAttribute classes = new BasicAttribute("objectClass");
            classes.add("inetOrgPerson");
            odd.put(classes);
            odd.put("uid", "x)(uid=*");
            odd.put("cn", "Odd");
            odd.put("sn", "Odd");
            ctx.createSubcontext("uid=x)(uid=*,ou=people," + BASE, odd);
            ctx.modifyAttributes(SYNC_GROUP, new ModificationItem[] {
                new ModificationItem(DirContext.ADD_ATTRIBUTE, new BasicAttribute("memberUid", "x)(uid=*"))});
        });
        Path settings = settings(System.getenv("COPYDESK_TEST_DIRECTORY_URL"), System.getenv("COPYDESK_TEST_DIRECTORY_ADMIN"),
                Path.of(System.getenv("COPYDESK_TEST_DIRECTORY_PASSWORD_FILE")), "group.newsroom-sync = editor: news",
                "group.*)(cn\\=* = admin: news"); // the key is "group.*)(cn=*": filter syntax as a group's name
        CliRunner.Run run = cli.run("people", "sync", "--settings", settings.toString());
        assertThat(run.out()).contains("skipped 'x)(uid=*': not an account name").doesNotContain("admin");
        assertThat(new Newsroom(root).editors()).extracting(e -> e.id()).containsExactlyInAnyOrder("dxhana", "dxpia", "dxquin");
        assertThat(new Newsroom(root).editors()).allMatch(e -> e.role() == Role.EDITOR);
    }

    @Test
    void theGroupsNameTheTakersOfStagesAndPeopleNamedByHandStay() throws Exception {
        Newsroom n = new Newsroom(root);
        n.addEditor("dxpia", "Pia", Role.EDITOR, 5, List.of("news"));
        n.addEditor("dxquin", "Quin", Role.EDITOR, 5, List.of("news"));
        root.execute("update editor set directory = 'member' where id in ('dxpia', 'dxquin')");
        ReviewStages stages = ReviewStages.over(root);
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, null, true, false, true));
        stages.setTakers(null, "news", "legal", List.of("dxhana", "dxquin"));
        Path file = settings("ldap://127.0.0.1:1/", "", null, "group.newsroom-sync = editor: news",
                "group.copydesk-legal = editor: news; stages: news/legal, news/copy, sport/legal");
        DirectorySettings settings = DirectorySettings.read(file);
        Map<String, DirectoryPeople.Member> members = Map.of(
                "dxpia", new DirectoryPeople.Member("dxpia", "Pia", Set.of("newsroom-sync", "copydesk-legal"), false),
                "dxquin", new DirectoryPeople.Member("dxquin", "Quin", Set.of("newsroom-sync"), false));

        // not closed: the session's database is the test's
        PeopleSync sync = new PeopleSync(new ReviewSession(db.database(), ReviewSession.Options.defaults()));
        List<PeopleSync.Change> plan = sync.plan(settings, members);
        assertThat(plan).extracting(PeopleSync.Change::line).containsExactly(
                "skipped stage news/copy: the desk's editors take it, not named people (copydesk stages add … --takers PERSON,…)",
                "set the takers of stage news/legal to dxhana, dxpia (now dxhana, dxquin)",
                "skipped stage sport/legal: desk sport has no stage legal");
        assertThat(sync.apply(settings, members, plan)).contains(
                "set the takers of stage news/legal to dxhana, dxpia (now dxhana, dxquin): done");
        assertThat(stages.chain("news").get(1).takers()).as("Hana, named by hand, stays; Quin left the legal group")
                .containsExactly("dxhana", "dxpia");
        assertThat(sync.plan(settings, members)).as("a second run changes nothing")
                .noneMatch(c -> c.kind() != PeopleSync.Kind.SKIP);
    }

    @Test
    void stagesInTheSettingsAreDeskSlashStageOrRefused() throws Exception {
        assertThatThrownBy(() -> DirectorySettings.read(settings("ldap://127.0.0.1:1/", "", null,
                "group.legal = editor: news; stages: news/le'gal")))
                .hasMessageEndingWith("group.legal names the stage 'news/le'gal', not DESK/STAGE (letters, digits, . _ and -);"
                        + " nothing was changed.");
        assertThatThrownBy(() -> DirectorySettings.read(settings("ldap://127.0.0.1:1/", "", null,
                "group.legal = editor: news; desks: sport")))
                .hasMessageContaining("has 'desks: sport' after the desks; only '; stages: DESK/STAGE, …' may follow them");
    }

    private int claimedBy(String user, String password) {
        String url = db.endpoint().accountUrl(db.name()).replace("sslMode=DISABLED", "sslMode=REQUIRED");
        try (Database d = Database.open(url, user, password.toCharArray(), "REQUIRED", DataSources.PoolSize.of(1),
                Database.SchemaAction.NONE, null)) {
            return new ReviewSession(d, ReviewSession.Options.defaults()).queue().claim(user).articles().size();
        }
    }

    private Path settings(String url, String bindDn, Path secret, String... groups) throws Exception {
        Path file = dir.resolve("directory-" + System.nanoTime() + ".properties");
        String password = secret == null ? "" : secret.toString();
        Files.writeString(file, String.join("\n", "url = " + url, "bind.dn = " + bindDn, "bind.password.file = " + password,
                "groups.base = ou=groups," + BASE, "people.base = ou=people," + BASE, String.join("\n", groups)) + "\n");
        return file;
    }

    private static BasicAttributes chiefs() {
        BasicAttributes group = new BasicAttributes(true);
        group.put("objectClass", "groupOfNames");
        group.put("cn", "copydesk-chiefs");
        group.put("member", "uid=dxquin,ou=people," + BASE);
        return group;
    }

    private interface DirectoryWork {
        void on(DirContext ctx) throws Exception;
    }

    private static void withDirectory(DirectoryWork work) throws Exception {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, System.getenv("COPYDESK_TEST_DIRECTORY_URL"));
        env.put(Context.SECURITY_PRINCIPAL, System.getenv("COPYDESK_TEST_DIRECTORY_ADMIN"));
        env.put(Context.SECURITY_CREDENTIALS, Files.readString(Path.of(System.getenv("COPYDESK_TEST_DIRECTORY_PASSWORD_FILE"))));
        DirContext ctx = new InitialDirContext(env);
        try {
            work.on(ctx);
        } finally {
            ctx.close();
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void quietly(Step step) {
        try {
            step.run();
        } catch (Exception alreadyAsItShouldBe) {
            // cleaning up what a test may not have made
        }
    }

    private static boolean directory() {
        return System.getenv("COPYDESK_TEST_DIRECTORY_URL") != null;
    }
}
