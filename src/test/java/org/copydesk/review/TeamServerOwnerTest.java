package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.cli.Cli;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.OwnerRights;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestServer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A team server set up as docs/security.md tells admins to: the schema owned by an account with
 * exactly the rights listed there, not the server's root. Migrating, creating accounts and the
 * sweep that ends a blocking session all work with those rights; {@code copydesk doctor} says so,
 * and names the right that is missing when one is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TeamServerOwnerTest {

    private static final String OWNER = "own_" + ProcessHandle.current().pid();
    private static final String OWNER_PASSWORD = "owner-of-the-schema-1";
    private static final String ANN = "ow_ann";
    private static final String BOB = "ow_bob";
    private static final String PASSWORD = "team-server-1";

    private final TestServer.Endpoint server = TestServer.endpoint();
    private final String schema = "t_owner_" + ProcessHandle.current().pid();
    private boolean mariaDb;
    private Database owned;
    private DSLContext owner;

    @BeforeAll
    void ownerWithTheDocumentedRights() {
        server.execute("drop database if exists `" + schema + "`");
        server.execute("drop user if exists '" + OWNER + "'@'%'");
        server.execute("create database `" + schema + "`");
        server.execute("create user '" + OWNER + "'@'%' identified by '" + OWNER_PASSWORD + "'");
        try (Connection c = server.adminConnection(); Statement s = c.createStatement()) {
            mariaDb = Attacks.runs(s, "select version()").contains("MariaDB");
            for (String grant : documentedGrants()) {
                s.execute(grant);
            }
            if (!mariaDb && "1".equals(Attacks.runs(s, "select @@log_bin")) && "0".equals(Attacks.runs(s,
                    "select @@log_bin_trust_function_creators"))) {
                s.execute("set global log_bin_trust_function_creators = 1"); // as the docs tell MySQL admins to
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        owned = Database.open(server.accountUrl(schema), OWNER, OWNER_PASSWORD.toCharArray(), null, DataSources.PoolSize.of(3),
                Database.SchemaAction.MIGRATE, null);
        owner = owned.dsl();
        Newsroom n = new Newsroom(owner);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 3, List.of("news"));
        n.addEditor(BOB, "Bob", Role.EDITOR, 3, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(owner);
        accounts.createAccount(ANN, PASSWORD.toCharArray());
        accounts.createAccount(BOB, PASSWORD.toCharArray());
        Fixtures.articles(owner, "news", 6, 3, -60);
        owner.execute("update session_limit set lock_seconds = 1, suspend_seconds = 0");
    }

    /** The grants docs/security.md lists for the owner of a team server (keep the two the same). */
    private List<String> documentedGrants() {
        String to = " TO '" + OWNER + "'@'%'";
        List<String> grants = new java.util.ArrayList<>(List.of(
                "GRANT ALL PRIVILEGES ON `" + schema + "`.* " + to.trim() + " WITH GRANT OPTION",
                "GRANT PROCESS, CREATE USER ON *.*" + to,
                mariaDb ? "GRANT CONNECTION ADMIN ON *.*" + to : "GRANT CONNECTION_ADMIN, XA_RECOVER_ADMIN ON *.*" + to));
        for (String table : List.of("user", "db", "tables_priv", "columns_priv", "procs_priv")) {
            grants.add("GRANT SELECT ON mysql." + table + to);
        }
        if (!mariaDb) {
            grants.add("GRANT SELECT ON performance_schema.prepared_statements_instances" + to);
            grants.add("GRANT SELECT ON performance_schema.threads" + to);
        }
        return grants;
    }

    @AfterAll
    void dropEverything() {
        if (owned != null) {
            AccountAdministration accounts = new AccountAdministration(owner);
            accounts.dropAccount(ANN);
            accounts.dropAccount(BOB);
            owned.close();
        }
        server.execute("drop database if exists `" + schema + "`");
        server.execute("drop user if exists '" + OWNER + "'@'%'");
    }

    @Test
    void theDoctorFindsEveryRightThere() {
        assertThat(OwnerRights.missing(owner, mariaDb)).isEmpty();
        Map<String, String> said = doctor();
        assertThat(said.get("code")).as(said.get("err")).isEqualTo("0");
        assertThat(said.get("out")).contains("holds every right");
        // one line on directory sign-in, read with the owner's documented rights
        assertThat(said.get("out")).contains(System.getenv("COPYDESK_TEST_DIRECTORY_URL") != null
                ? "Directory sign-in: available" : "Directory sign-in: not on this server");
    }

    @Test
    void theSweepEndsABlockingSessionWithTheseRights() throws Exception {
        try (Connection ann = DriverManager.getConnection(server.accountUrl(schema), ANN, PASSWORD); Statement s = ann.createStatement()) {
            s.execute("start transaction");
            s.executeQuery("select count(*) from article where id > 0 lock in share mode").close();
            Thread.sleep(1_200);
            SessionSweep sweep;
            try (Database bobs = Database.open(server.accountUrl(schema), BOB, PASSWORD.toCharArray(), null, DataSources.PoolSize.of(1),
                    Database.SchemaAction.NONE, null)) {
                sweep = new SessionSweep(bobs.dsl());
                assertThat(sweep.runOnce().ended()).as("run from an editor's client, with the owner's rights")
                        .extracting(SessionSweep.Ended::account).containsExactly(ANN);
            }
            assertThatThrownBy(() -> s.executeQuery("select 1")).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void theDoctorNamesARightThatIsMissing() {
        server.execute("revoke process on *.* from '" + OWNER + "'@'%'");
        try {
            List<OwnerRights.Missing> missing = OwnerRights.missing(owner, mariaDb);
            assertThat(missing).extracting(OwnerRights.Missing::right).containsExactly("PROCESS");
            Map<String, String> said = doctor();
            assertThat(said.get("code")).isEqualTo("1");
            assertThat(said.get("err").strip()).contains("lacks PROCESS", "GRANT PROCESS ON *.* TO '" + OWNER + "'@'%';")
                    .doesNotContain("\n");
            Map<String, String> migrated = copydesk("db", "migrate");
            assertThat(migrated.get("code")).as(migrated.get("err")).isEqualTo("0");
            assertThat(migrated.get("err").strip()).as("copydesk db migrate says the same in one line").contains("lacks PROCESS")
                    .doesNotContain("\n");
        } finally {
            server.execute("grant process on *.* to '" + OWNER + "'@'%'");
        }
    }

    /**
     * A database whose default a DBA left at latin1 (here only its default: its tables are already
     * utf8mb4): the doctor names it with the fix, the owner's migration with exactly the rights above
     * converts it to the collation its tables have, and the doctor is content again.
     */
    @Test
    void aDatabaseLeftInLatin1IsNamedByTheDoctorAndConvertedByTheOwnersMigration() {
        String before = owner.fetchValue("select default_collation_name from information_schema.schemata where schema_name = ?",
                schema).toString();
        server.execute("alter database `" + schema + "` character set latin1");
        try {
            Map<String, String> said = doctor();
            assertThat(said.get("code")).isEqualTo("1");
            assertThat(said.get("err").strip()).contains("stores text as latin1", "copydesk db migrate").doesNotContain("\n");
            Map<String, String> migrated = copydesk("db", "migrate");
            assertThat(migrated.get("code")).as(migrated.get("err")).isEqualTo("0");
            assertThat(owner.fetchValue("select default_collation_name from information_schema.schemata where schema_name = ?",
                    schema).toString()).as("the collation of its tables").isEqualTo(before);
            Map<String, String> again = doctor();
            assertThat(again.get("code")).as(again.get("err")).isEqualTo("0");
        } finally {
            server.execute("alter database `" + schema + "` character set utf8mb4 collate " + before);
        }
    }

    private Map<String, String> doctor() {
        return copydesk("doctor");
    }

    private Map<String, String> copydesk(String... command) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("COPYDESK_DB_PASSWORD", OWNER_PASSWORD);
        List<String> args = new java.util.ArrayList<>(List.of(command));
        args.addAll(List.of("--db-url", server.accountUrl(schema), "--db-user", OWNER));
        int code = Cli.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), environment);
        return Map.of("code", Integer.toString(code), "out", out.toString(), "err", err.toString());
    }
}
