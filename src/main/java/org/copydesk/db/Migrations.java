package org.copydesk.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.CoreErrorCode;
import org.flywaydb.core.api.ErrorDetails;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.ValidateOutput;
import org.flywaydb.core.api.output.ValidateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flyway, with the scripts shipped inside the jar, in two steps. First the versioned migrations of
 * {@code db/migration}: tables, indexes and data, recorded in {@code flyway_schema_history}. Then the
 * routines of {@code db/routines}, one repeatable migration per procedure, function, trigger or
 * view, each applied again whenever its file changes and recorded in a history of their own,
 * {@code flyway_routines_history} (clients of earlier releases validate the main history and would call
 * routines they do not know "missing"). Dropping a routine drops its EXECUTE grants, so a migration
 * that applied anything ends by giving every account the rights of its role again.
 *
 * <p>Clients migrate when their account may; otherwise they only validate and point the admin at
 * {@code copydesk db migrate}.
 *
 * <p>A migration runs while people work: its statements wait a bounded time for locks, it ends the
 * newsroom's sessions that hold what it needs, and when a session it may not end holds it up it
 * stops, before its first statement where it can, and names that session ({@link MigrationWatch}).
 */
public final class Migrations {

    /** Where Flyway records which routine files are applied, and with which checksums. */
    static final String ROUTINES_HISTORY = "flyway_routines_history";

    private static final Logger log = LoggerFactory.getLogger(Migrations.class);

    private final DataSource dataSource;
    private Flyway schema;
    private Flyway routines;

    public Migrations(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Flyway for the versioned scripts, made when first needed: loading Flyway is much of a command's start. */
    private Flyway schema() {
        if (schema == null) {
            schema = scriptsIn("classpath:db/migration")
                    // validated by validateSchemaHistory, which also knows the released checksums
                    .validateOnMigrate(false)
                    .load();
        }
        return schema;
    }

    private Flyway routines() {
        if (routines == null) {
            routines = scriptsIn("classpath:db/routines")
                    .table(ROUTINES_HISTORY)
                    .callbacks(new OperationGrantsKept())
                    // the schema is never empty when the routines' history starts: it needs a baseline row
                    .baselineOnMigrate(true)
                    .load();
        }
        return routines;
    }

    private FluentConfiguration scriptsIn(String location) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(location)
                .validateMigrationNaming(true)
                // A client of this release still validates a schema a newer release migrated further
                // (desktops are upgraded one by one): versioned scripts newer than its own ("future")
                // and repeatable scripts it has never seen ("missing": a newer release's routines, or
                // one a later version dropped, whose file is gone)
                .ignoreMigrationPatterns("*:future", "repeatable:missing")
                .cleanDisabled(true);
    }

    /** Where Flyway records the versioned migrations (its default). */
    static final String SCHEMA_HISTORY = "flyway_schema_history";

    /**
     * Result of {@link #migrateOrValidate()}: the schema version, how many scripts of both kinds ran,
     * and one line for each newsroom session the migration ended because it held the schema.
     */
    public record Outcome(String schemaVersion, int applied, List<String> endedSessions) {
        public Outcome(String schemaVersion, int applied) {
            this(schemaVersion, applied, List.of());
        }
    }

    /**
     * Applies pending versioned migrations, then the routines whose files are new or changed, then
     * every account's grants (needs the owner's rights). A schema that a newer Copydesk migrated is
     * left as it is: its routines are that version's.
     */
    public Outcome migrate() {
        validateSchemaHistory(() -> schema().info());
        ServerSettings.requireMigratable(dataSource);
        String before = currentVersion();
        try (MigrationWatch watch = MigrationWatch.start(dataSource, List.of(SCHEMA_HISTORY, ROUTINES_HISTORY))) {
            DataSource watched = watch.source(dataSource);
            int applied;
            MigrationInfoService after;
            watch.requireTablesFree(watched);
            try {
                boolean converted = convertToUtf8mb4(watched);
                applied = on(schema(), watched).migrate().migrationsExecuted;
                after = schema().info();
                if (!migratedByNewerVersion(after)) {
                    applied += migrateRoutines(on(routines(), watched));
                    if (applied > 0) {
                        regrantAccounts(watched);
                    }
                }
                if (converted) {
                    renewPoolSessions();
                }
            } catch (RuntimeException e) {
                Optional<String> heldUp = watch.explain(e, whatChanged(before));
                if (heldUp.isPresent()) {
                    throw new DatabaseSetupException(heldUp.get(), e);
                }
                Optional<String> setting = ServerSettings.explain(e);
                if (setting.isPresent()) {
                    throw new DatabaseSetupException(setting.get(), e);
                }
                throw e;
            }
            String version = version(after);
            log.info("Schema at version {} ({} migration(s) applied)", version, applied);
            return new Outcome(version, applied, watch.ended());
        }
    }

    private static Flyway on(Flyway flyway, DataSource watched) {
        return Flyway.configure().configuration(flyway.getConfiguration()).dataSource(watched).load();
    }

    /**
     * What a migration that stopped left: a versioned script runs statement by statement on these
     * servers (DDL commits as it goes), so one that stopped partway is said so; routines are
     * applied again whole by the next run.
     */
    private String whatChanged(String before) {
        MigrationInfoService now = schema().info();
        Optional<MigrationInfo> partway = Arrays.stream(now.all())
                .filter(m -> m.getVersion() != null && m.getState().isFailed()).findFirst();
        if (partway.isPresent()) {
            return "Version " + partway.get().getVersion() + " stopped partway (these servers apply a script's statements"
                    + " one by one): restore the backup taken before the upgrade, or finish it by hand, before migrating again.";
        }
        String version = version(now);
        return version.equals(before) ? "Nothing was changed." : "The schema is at version " + version
                + "; the next run applies the rest.";
    }

    /**
     * Migrates if anything is pending (a versioned migration, or a routine whose file is new or
     * changed), else validates. A pending migration that the account may not apply becomes a
     * message for the admin.
     */
    public Outcome migrateOrValidate() {
        Optional<String> shipped = ShippedScripts.inThisJar().flatMap(scripts -> scripts.recordedIn(dataSource));
        if (shipped.isPresent() && DatabaseCharacterSet.problem(dataSource).isEmpty()) {
            return new Outcome(shipped.get(), 0); // exactly this version's scripts, all applied: nothing for Flyway to do
        }
        MigrationInfoService info = schema().info();
        MigrationInfo[] pending = info.pending();
        boolean routinesBehind = pending.length == 0 && !migratedByNewerVersion(info) && routinesBehind(routines().info());
        Optional<String> notUtf8mb4 = migratedByNewerVersion(info) ? Optional.empty() : DatabaseCharacterSet.problem(dataSource);
        if (pending.length == 0 && !routinesBehind && notUtf8mb4.isEmpty()) {
            validateSchemaHistory(() -> info);
            return new Outcome(version(info), 0);
        }
        if (signedInAsAPerson()) {
            // a person of the newsroom never migrates (docs/security.md): said at once, without an attempt that
            // fails on a right they lack and fills their log with the migration's own alarms
            throw notAllowed(info, pending, routinesBehind, notUtf8mb4, null);
        }
        try {
            return migrate();
        } catch (RuntimeException e) {
            if (isPermissionProblem(e)) {
                throw notAllowed(info, pending, routinesBehind, notUtf8mb4, e);
            }
            if (e instanceof DatabaseSetupException) {
                throw e;
            }
            throw new DatabaseSetupException("Updating the database schema failed: " + rootMessage(e), e);
        }
    }

    /** What is out of date, and that this account may not update it. */
    private DatabaseSetupException notAllowed(MigrationInfoService info, MigrationInfo[] pending, boolean routinesBehind,
                                              Optional<String> notUtf8mb4, RuntimeException e) {
        {
            // the character set's line comes after what is out of date, so each is said once
            String alsoText = notUtf8mb4.map(line -> " " + line + ".").orElse("");
            if (pending.length > 0) {
                return new DatabaseSetupException("The database schema is out of date (at version " + currentVersion()
                        + ", this Copydesk needs " + pending[pending.length - 1].getVersion()
                        + ") and your account may not update it. Ask an admin to run: copydesk db migrate." + alsoText, e);
            }
            if (routinesBehind) {
                return new DatabaseSetupException("The database's operations are out of date (schema version " + version(info)
                        + ") and your account may not update them. Ask an admin to run: copydesk db migrate." + alsoText, e);
            }
            return new DatabaseSetupException(notUtf8mb4.orElseThrow() + ". Your account may not: ask an admin to run copydesk db migrate.",
                    e);
        }
    }

    /** The signed-in account is one of the newsroom's people (a row of editor), who never own the schema. */
    private boolean signedInAsAPerson() {
        try (java.sql.Connection c = dataSource.getConnection();
             java.sql.PreparedStatement s = c.prepareStatement("select count(*) from information_schema.tables t"
                     + " where t.table_schema = database() and t.table_name = 'editor'")) {
            try (java.sql.ResultSet r = s.executeQuery()) {
                if (!r.next() || r.getInt(1) == 0) {
                    return false;
                }
            }
            try (java.sql.PreparedStatement who = c.prepareStatement(
                    "select count(*) from editor where id = substring_index(current_user(), '@', 1)");
                 java.sql.ResultSet r = who.executeQuery()) {
                return r.next() && r.getInt(1) > 0;
            }
        } catch (java.sql.SQLException e) {
            return false; // then the attempt says what is wrong
        }
    }

    /**
     * Applies the routine files that are new or changed since they were last applied, and those
     * that failed then (a server setting missing, say): Flyway would refuse to go on past a failed
     * one until its history is repaired, and each file drops and creates what it defines, so
     * applying it again is safe whatever the failed attempt left.
     */
    private static int migrateRoutines(Flyway routines) {
        if (Arrays.stream(routines.info().all()).anyMatch(m -> m.getState().isFailed())) {
            log.warn("A routine failed to apply last time; applying it again");
            routines.repair(); // drops the failed rows; a changed file stays pending
        }
        return routines.migrate().migrationsExecuted;
    }

    private static boolean routinesBehind(MigrationInfoService info) {
        return info.pending().length > 0 || Arrays.stream(info.all()).anyMatch(m -> m.getState().isFailed());
    }

    /** Applies pending migrations up to {@code version} and no further (a restore rebuilds the schema a backup was taken at). */
    public Outcome migrateTo(String version) {
        boolean converted = convertToUtf8mb4(dataSource);
        int applied = Flyway.configure().configuration(schema().getConfiguration()).target(version).load().migrate().migrationsExecuted;
        if (converted) {
            renewPoolSessions();
        }
        return new Outcome(currentVersion(), applied);
    }

    /** The newest schema version this Copydesk knows. */
    public String latestKnownVersion() {
        MigrationInfo[] all = schema().info().all();
        return Arrays.stream(all).filter(m -> m.getVersion() != null).map(MigrationInfo::getVersion)
                .max(Comparable::compareTo).map(v -> v.getVersion()).orElse("none");
    }

    public String currentVersion() {
        return version(schema().info());
    }

    private static String version(MigrationInfoService info) {
        MigrationInfo current = info.current();
        return current == null || current.getVersion() == null ? "none" : current.getVersion().getVersion();
    }

    /**
     * Flyway's validation of the versioned history, less two things it would refuse: migrations
     * still pending (about to be applied, or reported by {@link #migrateOrValidate()} as such), and
     * the checksums the versions 1 to 15 had as released ({@link ReleasedChecksums}).
     */
    private void validateSchemaHistory(Supplier<MigrationInfoService> history) {
        ValidateResult result = schema().validateWithResult();
        if (result.validationSuccessful) {
            return;
        }
        MigrationInfoService info = history.get();
        Set<String> pending = Arrays.stream(info.pending()).filter(m -> m.getVersion() != null)
                .map(m -> m.getVersion().getVersion()).collect(Collectors.toSet());
        Map<String, Integer> appliedChecksums = Arrays.stream(info.applied())
                .filter(m -> m.getVersion() != null && m.getAppliedChecksum() != null)
                .collect(Collectors.toMap(m -> m.getVersion().getVersion(), MigrationInfo::getAppliedChecksum, (a, b) -> b));
        List<String> problems = result.invalidMigrations.stream()
                .filter(o -> o.version == null || !pending.contains(o.version))
                .filter(o -> !releasedBeforeRoutinesMoved(o, appliedChecksums))
                .map(o -> o.errorDetails.errorMessage)
                .toList();
        if (!problems.isEmpty()) {
            String messages = String.join("\n", problems);
            throw new FlywayValidateException(new ErrorDetails(CoreErrorCode.VALIDATE_ERROR, "Validate failed: " + messages), messages);
        }
    }

    private static boolean releasedBeforeRoutinesMoved(ValidateOutput invalid, Map<String, Integer> appliedChecksums) {
        return invalid.errorDetails.errorCode == CoreErrorCode.CHECKSUM_MISMATCH
                && ReleasedChecksums.isReleasedText(invalid.version, appliedChecksums.get(invalid.version));
    }

    /** True when the history has versions this Copydesk does not know (Flyway's "future" ones). */
    private static boolean migratedByNewerVersion(MigrationInfoService info) {
        return Arrays.stream(info.all()).anyMatch(m -> m.getState() == MigrationState.FUTURE_SUCCESS
                || m.getState() == MigrationState.FUTURE_FAILED);
    }

    /**
     * Converts the database to utf8mb4 when it is not ({@link DatabaseCharacterSet}), and says
     * whether it did. The pool's open sessions took the old default as their collation when they
     * connected, so they are replaced: a routine or table created through one would keep it.
     */
    private boolean convertToUtf8mb4(DataSource converting) {
        boolean converted = DatabaseCharacterSet.convert(converting);
        if (converted) {
            renewPoolSessions();
        }
        return converted;
    }

    /**
     * Replaces the pool's sessions as they come back. Done again once a migration that converted
     * has finished: a session the pool was opening as the default changed joins it after the first
     * renewal (the migration's own sessions check for that: {@link MigratingSessions}).
     */
    private void renewPoolSessions() {
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean().softEvictConnections();
            }
        } catch (SQLException e) {
            throw new DatabaseSetupException("Renewing the database connections after converting to utf8mb4 failed: "
                    + e.getMessage(), e);
        }
    }

    private static void regrantAccounts(DataSource granting) {
        try (Connection c = granting.getConnection(); Statement s = c.createStatement()) {
            s.execute("call regrant_accounts()");
        } catch (SQLException e) {
            throw new DatabaseSetupException("Giving the accounts the rights of this version failed: " + e.getMessage(), e);
        }
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
