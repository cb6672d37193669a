package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Backup and restore on the run's server (the embedded MariaDB 11.4, Debian's 10.11, MySQL 8 in
 * the CI passes): the rows come back, and a person's account comes back with the password it had
 * when the backup was taken (not the one it had since), with the rights of their role.
 */
@ExtendWith(DatabaseExtension.class)
class BackupRestoreOnServerTest {

    private final TestDatabase db;

    BackupRestoreOnServerTest(TestDatabase db) {
        this.db = db;
    }

    @Test
    void aRestoreBringsBackTheRowsAndTheAccountsPasswordOfTheBackup() throws Exception {
        String name = personWithAnAccount("br");
        AccountAdministration accounts = new AccountAdministration(db.dsl());
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DatabaseBackup.Summary written = DatabaseBackup.write(db.database(), file);
        assertThat(written.accounts()).contains(name);
        accounts.setPassword(name, "password-since".toCharArray());

        String target = db.name() + "_r";
        db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
        try (Database restored = Database.open(db.endpoint().url(target), db.endpoint().user(), db.endpoint().password().toCharArray(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            DatabaseBackup.Summary back = DatabaseRestore.restore(restored, new ByteArrayInputStream(file.toByteArray()));
            new Migrations(restored.dataSource()).migrate();
            AccountAdministration.of(restored).regrantExistingAccounts();

            assertThat(back.rows()).isEqualTo(written.rows());
            assertThat(back.accounts()).contains(name);
            try (Database person = Database.open(db.endpoint().accountUrl(target), name, "password-then".toCharArray(), null,
                    DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE_OR_VALIDATE, null)) {
                assertThat(person.dsl().fetchOne("select count(*) from article").get(0, Integer.class))
                        .isEqualTo(DemoNewsroom.ARTICLES);
            }
            assertThatThrownBy(() -> Database.open(db.endpoint().accountUrl(target), name, "password-since".toCharArray(), null,
                    DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null).close()).as("the password set after the backup")
                    .isNotNull();
            assertThatThrownBy(() -> DatabaseRestore.restore(restored, new ByteArrayInputStream(file.toByteArray())))
                    .as("into a database with a newsroom").hasMessageContaining("is not empty");
            assertThatThrownBy(() -> accounts.dropAccount(name))
                    .as("an account with rights on two newsrooms of the server is neither's to drop")
                    .hasMessageContaining("another application");
        } finally {
            db.endpoint().execute("DROP USER IF EXISTS '" + name + "'@'%'");
            db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
        }
    }

    /**
     * A backup file names the accounts whose credentials it carries; a restore must not be a way to
     * set the password of one of the server's own accounts (a DBA's, with a right on the whole
     * server), whoever wrote the file. Here a person's account becomes such an account after the
     * backup, with a password of its own: the restore leaves it as it is and says so.
     */
    @Test
    void aRestoreLeavesAnAccountOfTheServerItselfAsItIsWhateverTheBackupSays() throws Exception {
        String name = personWithAnAccount("bs");
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        assertThat(DatabaseBackup.write(db.database(), file).accounts()).contains(name);
        String target = db.name() + "_s";
        try {
            db.endpoint().execute("GRANT PROCESS ON *.* TO '" + name + "'@'%'");
            db.endpoint().execute("ALTER USER '" + name + "'@'%' IDENTIFIED BY 'dba-password-1'");
            db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
            try (Database restored = Database.open(db.endpoint().url(target), db.endpoint().user(),
                    db.endpoint().password().toCharArray(), null, DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
                DatabaseBackup.Summary back = DatabaseRestore.restore(restored, new ByteArrayInputStream(file.toByteArray()));
                new Migrations(restored.dataSource()).migrate();
                AccountAdministration.of(restored).regrantExistingAccounts();

                assertThat(back.serversOwnAccounts()).as("named by the backup, the server's own now").containsExactly(name);
                assertThat(back.accounts()).doesNotContain(name);
            }
            String server = db.endpoint().accountUrl("");
            DriverManager.getConnection(server, name, "dba-password-1").close();
            assertThatThrownBy(() -> DriverManager.getConnection(server, name, "password-then").close())
                    .as("the backup's password").isInstanceOf(SQLException.class);
            try (Connection root = db.endpoint().adminConnection(); Statement s = root.createStatement();
                 ResultSet grants = s.executeQuery("SHOW GRANTS FOR '" + name + "'@'%'")) {
                while (grants.next()) {
                    assertThat(grants.getString(1)).as("no right on the restored database").doesNotContain(target);
                }
            }
        } finally {
            db.endpoint().execute("DROP USER IF EXISTS '" + name + "'@'%'");
            db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
        }
    }

    /** A new person of the demo newsroom (loaded if the database is empty) with an account whose password is "password-then". */
    private String personWithAnAccount(String prefix) {
        DemoNewsroom.loadIfEmpty(db.dsl(), new Newsroom(db.dsl()));
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        new Newsroom(db.dsl()).addEditor(name, "Backed Up", Role.EDITOR, 5, java.util.List.of("news"));
        new AccountAdministration(db.dsl()).createAccount(name, "password-then".toCharArray());
        return name;
    }

    /**
     * A new team server migrates its database at its first start, so a restore empties a database
     * that has the schema and no data, while the server (and the restore's own pool) keep opening
     * connections with {@code createDatabaseIfNotExist}. Emptying it by dropping and creating the
     * database lost that race on CI ("Can't create database; database exists"): the other
     * session, waiting on the drop's lock, made the database first. Here a session does what that
     * connection option does, as fast as it can, all through the restore; the database must never
     * be missing and the restore must succeed.
     */
    @Test
    void aRestoreIntoAMigratedEmptyDatabaseNeverLeavesItMissingWhileOthersConnect() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DatabaseBackup.write(db.database(), file);
        String target = db.name() + "_m";
        db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
        AtomicBoolean restoring = new AtomicBoolean(true);
        try (Database restored = Database.open(db.endpoint().url(target), db.endpoint().user(), db.endpoint().password().toCharArray(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            new Migrations(restored.dataSource()).migrate();
            CompletableFuture<Integer> madeAgain = CompletableFuture.supplyAsync(() -> {
                int made = 0;
                try (Connection c = db.endpoint().adminConnection(); Statement s = c.createStatement()) {
                    while (restoring.get()) {
                        s.execute("CREATE DATABASE IF NOT EXISTS `" + target + "`");
                        SQLWarning existed = s.getWarnings();
                        if (existed == null) {
                            made++; // the database was missing: this session made it
                        }
                        s.clearWarnings();
                    }
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
                return made;
            });
            try {
                DatabaseRestore.restore(restored, new ByteArrayInputStream(file.toByteArray()));
            } finally {
                restoring.set(false);
            }
            assertThat(madeAgain.get(30, TimeUnit.SECONDS)).as("times the database was missing during the restore").isZero();
            assertThat(restored.dsl().fetchOne("select count(*) from article").get(0, Integer.class))
                    .isEqualTo(db.dsl().fetchOne("select count(*) from article").get(0, Integer.class));
        } finally {
            db.endpoint().execute("DROP DATABASE IF EXISTS `" + target + "`");
        }
    }
}
