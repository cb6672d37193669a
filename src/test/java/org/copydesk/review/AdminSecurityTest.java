package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An admin manages people's accounts and nothing beyond: it cannot change what the operations trust
 * (the rights table, constraints, routines, temporary tables that would shadow them), cannot run
 * the owner's statements, cannot take another application's account over, and cannot end up with any
 * right beyond its role after any sequence of its own operations (every account's {@code SHOW GRANTS}
 * before and after). A regrant that cannot be done completely changes nothing. Acting for an editor
 * is recorded as such.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(AdminSecurityTest.class);
    private static final String ADM = "ad_adm";
    private static final String ANN = "ad_ann";
    private static final String SUE = "ad_sue";
    private static final String PASSWORD = "admin-security-1";

    private final TestDatabase db;
    private final DSLContext root;
    private final Attacks attacks;
    private final AccountAdministration owner;

    AdminSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.owner = new AccountAdministration(root);
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 3, List.of("news"));
        n.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        n.addEditor(ADM, "Adam", Role.ADMIN, 0, List.of());
        for (String person : List.of(ANN, SUE, ADM)) {
            owner.createAccount(person, PASSWORD.toCharArray());
        }
    }

    @AfterAll
    void close() {
        attacks.log(log, "an admin");
        for (String name : root.fetch("select id from editor where id like 'ad\\_%'").getValues(0, String.class)) {
            owner.dropAccount(name);
        }
        for (String name : root.fetch("select name from integration_account").getValues(0, String.class)) {
            owner.dropIntegrationAccount(name);
        }
    }

    @BeforeEach
    void articles() {
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
    }

    private String admin(String... statements) {
        return attacks.runs(ADM, PASSWORD, statements);
    }

    private void refusedToAdmin(String what, String... statements) {
        attacks.refused(what, () -> admin(statements));
    }

    @Test
    void anAdminCannotChangeWhatTheOperationsTrustNorRunTheOwnersStatements() {
        Map<String, List<String>> before = grantsOfEveryAccount();
        refusedToAdmin("drop role_grant's CHECK", "ALTER TABLE role_grant DROP CONSTRAINT role_grant_privilege");
        refusedToAdmin("insert a right for supervisors that is SQL",
                "INSERT INTO role_grant (role, privilege, object_name, columns) VALUES "
                        + "('supervisor', 'ALL ON *.*/*', 'zz', '*/ TO " + ADM + " WITH GRANT OPTION#')");
        refusedToAdmin("give editors a table write through role_grant",
                "INSERT INTO role_grant (role, privilege, object_name) VALUES ('editor', 'SELECT', 'role_grant')");
        refusedToAdmin("delete the rights table's rows", "DELETE FROM role_grant");
        refusedToAdmin("shadow role_grant with a temporary table",
                "CREATE TEMPORARY TABLE role_grant (role VARCHAR(16), privilege VARCHAR(64), object_name VARCHAR(64),"
                        + " columns VARCHAR(200))");
        refusedToAdmin("shadow editor with a temporary table (to be admin in every operation)",
                "CREATE TEMPORARY TABLE editor (id VARCHAR(64), role VARCHAR(16), capacity INT)");
        refusedToAdmin("run the owner's statement runner", "CALL run_account_statement('GRANT ALL PRIVILEGES ON *.* TO "
                + ADM + " WITH GRANT OPTION')");
        refusedToAdmin("apply a role by hand", "CALL apply_role('" + ADM + "', 'admin')");
        refusedToAdmin("write history as someone else", "INSERT INTO lease_event (resource, row_key, action, actor) "
                + "VALUES ('article', '1', 'approve', '" + ANN + "')");
        refusedToAdmin("edit history", "UPDATE lease_event SET actor = 'nobody'");
        refusedToAdmin("forge a decision", "INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token) "
                + "VALUES ('" + UUID.randomUUID() + "', 1, '" + ANN + "', 'approve', '', 1)");
        refusedToAdmin("approve an article by hand", "UPDATE article SET status = 'approved'");
        refusedToAdmin("loosen the sweep's limits", "UPDATE session_limit SET lock_seconds = 86400");
        refusedToAdmin("make an integration account by hand", "INSERT INTO integration_account (name, kind, created_by, created_at) "
                + "VALUES ('root', 'relay', 'x', NOW())");
        refusedToAdmin("fake the schema's history", "DELETE FROM flyway_schema_history");
        for (String ddl : List.of("CREATE TABLE mine (id INT)", "DROP TABLE decision", "ALTER TABLE article ADD COLUMN x INT",
                "CREATE INDEX ix_mine ON article (title)", "TRUNCATE TABLE lease_event", "LOCK TABLES article WRITE",
                "CREATE VIEW mine AS SELECT 1", "CREATE PROCEDURE mine() SELECT 1",
                "CREATE TRIGGER mine BEFORE INSERT ON lease_event FOR EACH ROW SET NEW.actor = 'x'",
                "GRANT SELECT ON article TO '" + ANN + "'@'%'", "CREATE USER 'intruder'@'%' IDENTIFIED BY 'intruder-pass-1'",
                "RENAME USER 'root'@'localhost' TO 'gone'@'localhost'", "ALTER USER 'root'@'localhost' IDENTIFIED BY 'mine-now-123'",
                "DROP PROCEDURE claim_articles")) {
            refusedToAdmin(ddl, ddl);
        }
        assertThat(grantsOfEveryAccount()).as("every account's grants").isEqualTo(before);
    }

    /**
     * Rows of role_grant only the owner can write (dropping its CHECK first, as the admin of the
     * attack could before): the owner's regrant of every account and an admin's regrant of one
     * refuse each, with nothing changed on any account.
     */
    @Test
    void aRegrantThatCannotBeDoneCompletelyChangesNothing() {
        Map<String, List<String>> before = grantsOfEveryAccount();
        List<List<String>> badRows = List.of(
                List.of("supervisor", "ALL ON *.*/*", "zz", "*/ TO " + ADM + " WITH GRANT OPTION#"),
                List.of("editor", "SELECT", "no_such_table", ""),
                List.of("supervisor", "SELECT", "article", "id, title`) ON *.* TO x#"),
                List.of("editor", "EXECUTE", "run_account_statement", ""),
                List.of("editor", "DELETE", "lease_event", ""),
                List.of("admin", "DELETE", "role_grant", ""));
        root.execute("alter table role_grant drop constraint role_grant_privilege");
        try {
            for (List<String> row : badRows) {
                root.execute("insert into role_grant (role, privilege, object_name, columns) values (?, ?, ?, nullif(?, ''))",
                        row.toArray());
                try {
                    attacks.refused("the owner regrants every account with the row " + row + " in role_grant",
                            owner::regrantExistingAccounts);
                    attacks.refused("an admin regrants one account with the row " + row + " in role_grant",
                            () -> admin("CALL regrant_account('" + ANN + "')"));
                    assertThat(grantsOfEveryAccount()).as("after " + row).isEqualTo(before);
                } finally {
                    root.execute("delete from role_grant where role = ? and privilege = ? and object_name = ?",
                            row.get(0), row.get(1), row.get(2));
                }
            }
        } finally {
            root.execute("alter table role_grant add constraint role_grant_privilege"
                    + " check (privilege in ('SELECT', 'INSERT', 'UPDATE', 'DELETE', 'EXECUTE'))");
        }
        owner.regrantExistingAccounts();
        assertThat(grantsOfEveryAccount()).as("a complete regrant gives the same rights").isEqualTo(before);
    }

    @Test
    void anAdminEndsWithNoRightBeyondItsRoleAfterAnySequenceOfItsOperations() {
        Map<String, List<String>> before = grantsOfEveryAccount();
        long seed = Long.getLong("copydesk.test.seed", System.nanoTime());
        Random random = new Random(seed);
        Set<String> touched = new HashSet<>();
        List<String> done = new ArrayList<>();
        List<Supplier<String>> operations = List.of(
                () -> {
                    String name = "ad_p" + random.nextInt(4);
                    admin("INSERT IGNORE INTO editor (id, display_name, role, capacity) VALUES ('" + name + "', 'P', '"
                            + List.of("editor", "supervisor", "admin").get(random.nextInt(3)) + "', 3)");
                    touched.add(name);
                    return tryAdmin("CALL create_account('" + name + "', 'person-pass-" + random.nextInt(99) + "')") + "; "
                            + tryAdmin("CALL regrant_account('" + name + "')");
                },
                () -> tryAdmin("UPDATE editor SET role = '" + List.of("editor", "supervisor", "admin").get(random.nextInt(3))
                        + "' WHERE id = 'ad_p" + random.nextInt(4) + "'"),
                () -> tryAdmin("CALL regrant_account('ad_p" + random.nextInt(4) + "')"),
                () -> tryAdmin("CALL regrant_accounts()"),
                () -> tryAdmin("CALL set_account_password('ad_p" + random.nextInt(4) + "', 'new-pass-" + random.nextInt(99) + "')"),
                () -> tryAdmin("CALL drop_account('ad_p" + random.nextInt(4) + "')"),
                () -> {
                    String name = "ad_sys" + random.nextInt(3);
                    touched.add(name);
                    return tryAdmin("CALL create_integration_account('" + name + "', '" + (random.nextBoolean() ? "relay" : "feed_reader")
                            + "', 'integration-pass-1')");
                },
                () -> tryAdmin("CALL drop_integration_account('ad_sys" + random.nextInt(3) + "')"),
                () -> tryAdmin("CALL lift_suspension('" + ANN + "')"),
                () -> tryAdmin("CALL create_account('root', 'mine-now-123')"),
                () -> tryAdmin("CALL create_integration_account('" + ADM + "', 'relay', 'integration-pass-1')"),
                () -> tryAdmin("CALL set_account_password('" + ADM + "', '" + PASSWORD + "')"));
        for (int step = 0; step < 40; step++) {
            done.add(operations.get(random.nextInt(operations.size())).get());
            Map<String, List<String>> now = grantsOfEveryAccount();
            assertThat(now.get(ADM)).as("the admin's own rights after " + done + " (seed " + seed + ")").isEqualTo(before.get(ADM));
            for (Map.Entry<String, List<String>> account : now.entrySet()) {
                String name = account.getKey().substring(0, account.getKey().indexOf('@'));
                if (touched.contains(name)) {
                    assertThat(account.getValue()).as(account.getKey() + " after " + done + " (seed " + seed + ")")
                            .noneMatch(g -> g.contains("GRANT OPTION") || g.contains(" ALL PRIVILEGES ") && g.contains("*.*"))
                            .allMatch(g -> g.startsWith("GRANT USAGE ON *.*") || g.contains("`" + db.name() + "`"));
                } else {
                    assertThat(account.getValue()).as(account.getKey() + " (not named by any operation) after " + done)
                            .isEqualTo(before.get(account.getKey()));
                }
            }
        }
        owner.regrantExistingAccounts();
        assertThat(owner.everyAccountHasCurrentGrants()).as("after the owner's regrant, every account has its role's rights").isTrue();
        attacks.saw("40 random account operations by an admin (seed " + seed + ") -> no right beyond the roles, anywhere");
    }

    @Test
    void anotherApplicationsAccountIsNotTakenOver() throws Exception {
        String other = "ad_otherapp";
        String otherDb = db.name() + "_other";
        root.execute("create database if not exists `" + otherDb + "`");
        root.execute("create user if not exists '" + other + "'@'%' identified by 'other-app-pass-1'");
        root.execute("grant select on `" + otherDb + "`.* to '" + other + "'@'%'");
        try {
            Map<String, List<String>> before = grantsOfEveryAccount();
            admin("INSERT INTO editor (id, display_name, role, capacity) VALUES ('" + other + "', 'Other', 'editor', 1)");
            refusedToAdmin("set another application's password through the person of that name",
                    "CALL set_account_password('" + other + "', 'mine-now-123')");
            refusedToAdmin("make the person's account over another application's", "CALL create_account('" + other + "', 'mine-now-123')");
            refusedToAdmin("drop another application's account", "CALL drop_account('" + other + "')");
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(db.endpoint().accountUrl(otherDb), other,
                    "other-app-pass-1")) {
                assertThat(c.isValid(5)).as("its password still works").isTrue();
            }
            assertThat(grantsOfEveryAccount()).isEqualTo(before);
        } finally {
            root.execute("delete from editor where id = ?", other);
            root.execute("drop user if exists '" + other + "'@'%'");
            root.execute("drop database if exists `" + otherDb + "`");
        }
    }

    @Test
    void actingForAnEditorIsRecordedAsSuch() {
        String request = UUID.randomUUID().toString();
        admin("CALL claim_articles('" + ANN + "', NULL, 1, NULL, NULL)");
        long id = root.fetchOne("select id from article where locked_by = ?", ANN).get(0, Long.class);
        long token = root.fetchOne("select lease_token from article where id = ?", id).get(0, Long.class);
        admin("CALL decide_article('" + ANN + "', " + id + ", " + token + ", '" + request + "', 'approve', 'fine')");
        assertThat(root.fetch("select actor, acted_by from lease_event where row_key = ? order by id", Long.toString(id))
                .map(r -> r.get(0, String.class) + " by " + r.get(1, String.class)))
                .as("the claim and the decision in ann's name, done by the admin").isNotEmpty().allMatch((ANN + " by " + ADM)::equals);
        assertThat(root.fetchOne("select editor_id, acted_by from decision where request_id = ?", request).intoArray())
                .containsExactly(ANN, ADM);
        attacks.runs(ANN, PASSWORD, "CALL claim_articles(NULL, NULL, 1, NULL, NULL)");
        assertThat(root.fetch("select acted_by from lease_event where actor = ? and action = 'claim' order by id desc limit 1", ANN)
                .getValue(0, 0)).as("ann's own claim").isNull();
        attacks.saw("admin: CALL claim_articles / decide_article for " + ANN + " -> history and decision name "
                + ANN + ", done by " + ADM);
    }

    private String tryAdmin(String sql) {
        try {
            admin(sql);
            return sql + " (done)";
        } catch (RuntimeException refused) {
            return sql + " (refused)";
        }
    }

    /** {@code SHOW GRANTS} of every account on the server, by {@code user@host}. */
    /**
     * Every account that has a right on this test's database or on the whole server, with its grants.
     * Accounts whose only rights are on other databases are left out: on a server the test JVMs share,
     * other classes make and drop accounts for their own databases meanwhile (DeadlineReportSecurityTest's
     * two came and went within one of these snapshots); an account an attack gave a right here, or on
     * *.*, is in.
     */
    private Map<String, List<String>> grantsOfEveryAccount() {
        Map<String, List<String>> grants = new TreeMap<>();
        String here = "`" + db.name() + "`.";
        for (var account : root.fetch("select user, host from mysql.user where user <> ''")) {
            String user = account.get(0, String.class);
            String host = account.get(1, String.class);
            if (user.startsWith("mysql.") || user.equals("mariadb.sys") || user.equals("PUBLIC")) {
                continue;
            }
            String quoted = "'" + user.replace("'", "''") + "'@'" + host.replace("'", "''") + "'";
            List<String> lines;
            try {
                lines = root.fetch("show grants for " + quoted).getValues(0, String.class).stream()
                        .map(g -> g.replaceAll(" IDENTIFIED BY PASSWORD '[^']*'", "")).sorted().toList();
            } catch (org.jooq.exception.DataAccessException e) {
                if (e.getCause() instanceof java.sql.SQLException q && q.getErrorCode() == 1141) {
                    continue; // "no such grant defined": another JVM's test dropped the account since it was listed
                }
                throw e;
            }
            boolean concernsThisTest = lines.stream().anyMatch(g -> g.contains(" ON " + here) || g.contains(" ON PROCEDURE " + here)
                    || g.contains(" ON FUNCTION " + here) || g.contains(" ON *.*") && !g.startsWith("GRANT USAGE ON *.*"));
            if (concernsThisTest) {
                grants.put(user + "@" + host, lines);
            }
        }
        return grants;
    }
}
