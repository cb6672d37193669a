package org.copydesk.db;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flyway, with the scripts from {@code db/migration} shipped inside the jar. Clients migrate when
 * their account may; otherwise they only validate and point the admin at {@code copydesk db migrate}.
 */
public final class Migrations {

    private static final Logger log = LoggerFactory.getLogger(Migrations.class);

    private final Flyway flyway;

    public Migrations(DataSource dataSource) {
        this.flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .validateMigrationNaming(true)
                // A client of this release still validates a schema a newer release migrated further
                // (desktops are upgraded one by one): versioned scripts newer than its own ("future")
                // and repeatable scripts it has never seen ("missing", a newer release's routines).
                .ignoreMigrationPatterns("*:future", "repeatable:missing")
                .cleanDisabled(true)
                .load();
    }

    /** Result of {@link #migrateOrValidate()}. */
    public record Outcome(String schemaVersion, int applied) {
    }

    /** Applies pending migrations (needs DDL privileges). */
    public Outcome migrate() {
        MigrateResult result = flyway.migrate();
        String version = currentVersion();
        log.info("Schema at version {} ({} migration(s) applied)", version, result.migrationsExecuted);
        return new Outcome(version, result.migrationsExecuted);
    }

    /**
     * Migrates if anything is pending, else validates. A pending migration that the account may not
     * apply becomes a message for the admin.
     */
    public Outcome migrateOrValidate() {
        MigrationInfo[] pending = flyway.info().pending();
        if (pending.length == 0) {
            flyway.validate();
            return new Outcome(currentVersion(), 0);
        }
        try {
            return migrate();
        } catch (RuntimeException e) {
            if (isPermissionProblem(e)) {
                throw new DatabaseSetupException("The database schema is out of date (at version " + currentVersion()
                        + ", this Copydesk needs " + pending[pending.length - 1].getVersion()
                        + ") and your account may not update it. Ask an admin to run: copydesk db migrate", e);
            }
            throw new DatabaseSetupException("Updating the database schema failed: " + rootMessage(e), e);
        }
    }

    /** Applies pending migrations up to {@code version} and no further (a restore rebuilds the schema a backup was taken at). */
    public Outcome migrateTo(String version) {
        MigrateResult result = Flyway.configure().configuration(flyway.getConfiguration()).target(version).load().migrate();
        return new Outcome(currentVersion(), result.migrationsExecuted);
    }

    /** The newest schema version this Copydesk knows. */
    public String latestKnownVersion() {
        MigrationInfo[] all = flyway.info().all();
        return java.util.Arrays.stream(all).filter(m -> m.getVersion() != null).map(MigrationInfo::getVersion)
                .max(Comparable::compareTo).map(v -> v.getVersion()).orElse("none");
    }

    public String currentVersion() {
        MigrationInfo current = flyway.info().current();
        return current == null || current.getVersion() == null ? "none" : current.getVersion().getVersion();
    }

    private static boolean isPermissionProblem(Throwable t) {
        return org.copydesk.lease.SqlFailure.of(t) == org.copydesk.lease.SqlFailure.PRIVILEGE_MISSING;
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage();
    }
}
