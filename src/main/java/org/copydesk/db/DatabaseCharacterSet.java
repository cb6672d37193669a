package org.copydesk.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.copydesk.lease.SqlFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the database hold its text in utf8mb4 before any migration runs. The schema's scripts name
 * no character set, so tables, columns, and the parameters and variables of routines take the
 * database's default, and a DBA's plain {@code CREATE DATABASE copydesk;} takes the server's: latin1
 * on MariaDB before 11.6 with its compiled-in defaults. Such a database cannot hold a Greek title or
 * an emoji, and every decision fails ({@code COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET
 * 'latin1'}).
 *
 * <p>So the owner's migration first converts it: the database's default becomes utf8mb4 (the
 * server's default collation for it); every table and every text column that is not utf8mb4 is
 * converted, a column declared binary keeping a binary collation ({@code article.external_id}); the
 * foreign keys over converted columns are dropped around the conversion and added again (MariaDB
 * refuses to change a column a foreign key uses, whatever {@code foreign_key_checks} says:
 * MDEV-31086); and every routine, trigger and view is marked to be applied again, since each kept
 * the character set it was created with. A conversion cut short is taken up again by the next
 * migration: what is still not utf8mb4 is found the same way. An account that may not alter the
 * database is refused before anything changes, with the statement for the DBA.
 *
 * <p>The statements are built from names the server itself reports for this database (tables,
 * columns, constraints, each quoted as an identifier) and from its own {@code SHOW CREATE TABLE}
 * text; nothing a person or another account wrote goes into them.
 */
final class DatabaseCharacterSet {

    static final String UTF8MB4 = "utf8mb4";

    private static final Logger log = LoggerFactory.getLogger(DatabaseCharacterSet.class);

    /** The character set and collation clauses right after a column's type in {@code SHOW CREATE TABLE}. */
    private static final Pattern CHARSET_CLAUSES = Pattern.compile("^(?: CHARACTER SET \\w+)?(?: COLLATE \\w+)?");

    private DatabaseCharacterSet() {
    }

    /**
     * What is not utf8mb4 in the connected database: its default, and how many tables and routines
     * (procedures, functions, triggers, views) are not.
     */
    record State(String schema, String characterSet, String collation, List<String> tables, int routines) {

        boolean utf8mb4Throughout() {
            return characterSet.equals(UTF8MB4) && tables.isEmpty() && routines == 0;
        }

        /** One line for {@code copydesk doctor} and a client that may not migrate. */
        String describe() {
            if (!characterSet.equals(UTF8MB4)) {
                return "The database `" + schema + "` stores text as " + characterSet + " (" + collation
                        + "), which cannot hold every character an article may have (Greek, emoji);"
                        + " copydesk db migrate, run as the database's owner, converts it to utf8mb4";
            }
            return "The database `" + schema + "` is utf8mb4, but " + tables.size() + " table(s) and " + routines
                    + " routine(s) of it are not (a conversion was cut short?); copydesk db migrate, run as the database's owner,"
                    + " finishes converting them";
        }
    }

    /** Reads what is not utf8mb4 in the connected database. */
    static State inspect(Connection c) throws SQLException {
        String schema;
        String characterSet;
        String collation;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME"
                     + " FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()")) {
            if (!rs.next()) {
                throw new DatabaseSetupException("The connection names no database: add it to the URL (jdbc:mysql://host:3306/copydesk).");
            }
            schema = rs.getString(1);
            characterSet = rs.getString(2).toLowerCase(Locale.ROOT);
            collation = rs.getString(3).toLowerCase(Locale.ROOT);
        }
        List<String> tables = strings(c, "SELECT DISTINCT t.TABLE_NAME FROM information_schema.TABLES t"
                + " LEFT JOIN information_schema.COLUMNS k ON k.TABLE_SCHEMA = t.TABLE_SCHEMA AND k.TABLE_NAME = t.TABLE_NAME"
                + " AND k.CHARACTER_SET_NAME IS NOT NULL AND k.CHARACTER_SET_NAME <> 'utf8mb4'"
                + " WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE'"
                + " AND (t.TABLE_COLLATION NOT LIKE 'utf8mb4\\_%' OR k.COLUMN_NAME IS NOT NULL) ORDER BY t.TABLE_NAME");
        int routines = strings(c, "SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE()"
                + " AND (DATABASE_COLLATION NOT LIKE 'utf8mb4\\_%' OR COLLATION_CONNECTION NOT LIKE 'utf8mb4\\_%')"
                + " UNION ALL SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()"
                + " AND (DATABASE_COLLATION NOT LIKE 'utf8mb4\\_%' OR COLLATION_CONNECTION NOT LIKE 'utf8mb4\\_%')"
                + " UNION ALL SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE()"
                + " AND COLLATION_CONNECTION NOT LIKE 'utf8mb4\\_%'").size();
        return new State(schema, characterSet, collation, tables, routines);
    }

    /** What is not utf8mb4 in the database behind {@code dataSource}, for {@code copydesk doctor}; empty when all is. */
    static Optional<String> problem(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            State state = inspect(c);
            return state.utf8mb4Throughout() ? Optional.empty() : Optional.of(state.describe());
        } catch (SQLException e) {
            throw new DatabaseSetupException("Reading the database's character set failed: " + e.getMessage(), e);
        }
    }

    /**
     * Converts whatever is not utf8mb4 (see the class comment); returns whether anything was.
     * Routines to apply again are marked in the routines' history (their rows removed), so the
     * routines' migration that follows re-creates them in utf8mb4.
     */
    static boolean convert(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            State state = inspect(c);
            if (state.utf8mb4Throughout()) {
                return false;
            }
            String database = identifier(state.schema());
            if (!state.characterSet().equals(UTF8MB4)) {
                alterDatabase(c, state, database);
            }
            String collation = databaseCollation(c);
            if (state.tables().isEmpty() && state.routines() == 0) {
                log.info("The database {} was made with {} ({}) as its text; it holds utf8mb4 ({}) from now on", database,
                        state.characterSet(), state.collation(), collation);
            } else {
                log.warn("The database {} held text as {} ({}); converting {} table(s) to utf8mb4 ({}) and applying {} routine(s) again",
                        database, state.characterSet(), state.collation(), state.tables().size(), collation, state.routines());
            }
            convertTables(c, state.tables(), state.collation(), collation);
            if (state.routines() > 0 && tableExists(c, Migrations.ROUTINES_HISTORY)) {
                execute(c, "DELETE FROM flyway_routines_history WHERE version IS NULL");
            }
            State after = inspect(c);
            if (!after.tables().isEmpty()) {
                throw new DatabaseSetupException("Converting the database to utf8mb4 left table(s) " + after.tables()
                        + " as they were; run copydesk db migrate again, and if it says this again, convert them by hand:"
                        + " ALTER TABLE … CONVERT TO CHARACTER SET utf8mb4;");
            }
            return true;
        } catch (SQLException e) {
            throw new DatabaseSetupException("Converting the database's text to utf8mb4 failed: " + e.getMessage()
                    + ". Nothing that was already converted is lost; run copydesk db migrate again.", e);
        }
    }

    /** {@code ALTER DATABASE … CHARACTER SET utf8mb4}, or the one line that tells the DBA to run it when the account may not. */
    private static void alterDatabase(Connection c, State state, String database) throws SQLException {
        String collation = tablesCollation(c).map(name -> " COLLATE " + name).orElse("");
        try (Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + database + " CHARACTER SET utf8mb4" + collation);
        } catch (SQLException e) {
            if (SqlFailure.of(e) == SqlFailure.PRIVILEGE_MISSING) {
                throw new DatabaseSetupException("The database " + database + " stores text as " + state.characterSet()
                        + ", which cannot hold every character an article may have, and this account may not change that."
                        + " Nothing was changed. Ask the DBA to run: ALTER DATABASE " + database
                        + " CHARACTER SET utf8mb4; (or to grant ALTER on " + database + ".* to the owner), then run copydesk db migrate.",
                        e);
            }
            throw e;
        }
    }

    /**
     * The utf8mb4 collation most of the tables already have, when they have one (a database whose
     * default alone was changed after its tables were made): the database takes theirs, so that
     * routines created from now on compare in it. Empty for a database whose tables are all in
     * another character set, or that has none: it takes the server's default for utf8mb4.
     */
    private static Optional<String> tablesCollation(Connection c) throws SQLException {
        return strings(c, "SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()"
                + " AND TABLE_TYPE = 'BASE TABLE' AND TABLE_COLLATION LIKE 'utf8mb4\\_%' AND TABLE_COLLATION <> 'utf8mb4_bin'"
                + " GROUP BY TABLE_COLLATION ORDER BY COUNT(*) DESC, TABLE_COLLATION LIMIT 1").stream()
                .filter(name -> name.matches("\\w+")).findFirst();
    }

    private static String databaseCollation(Connection c) throws SQLException {
        return strings(c, "SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()").get(0);
    }

    /** A foreign key, as {@code ALTER TABLE child ADD …} needs it to be added again. */
    private record ForeignKey(String table, String name, List<String> columns, String parent, List<String> parentColumns,
                              String onUpdate, String onDelete) {

        String addClause() {
            return "ADD CONSTRAINT " + identifier(name) + " FOREIGN KEY (" + identifiers(columns) + ") REFERENCES "
                    + identifier(parent) + " (" + identifiers(parentColumns) + ") ON UPDATE " + rule(onUpdate) + " ON DELETE "
                    + rule(onDelete);
        }

        /** The server's own words for a rule; checked, since it is put into a statement. */
        private static String rule(String rule) {
            return switch (rule) {
                case "CASCADE", "SET NULL", "RESTRICT", "NO ACTION", "SET DEFAULT" -> rule;
                default -> throw new DatabaseSetupException("A foreign key with the rule '" + rule + "' cannot be added again.");
            };
        }
    }

    private static void convertTables(Connection c, List<String> tables, String oldDefault, String collation) throws SQLException {
        if (tables.isEmpty()) {
            return;
        }
        List<ForeignKey> keys = foreignKeysTouching(c, tables);
        for (ForeignKey key : keys) {
            log.warn("Dropping the foreign key {} of {} while its columns are converted (it is added again next): ALTER TABLE {} {}",
                    key.name(), key.table(), identifier(key.table()), key.addClause());
            execute(c, "ALTER TABLE " + identifier(key.table()) + " DROP FOREIGN KEY " + identifier(key.name()));
        }
        for (String table : tables) {
            execute(c, "ALTER TABLE " + identifier(table) + " " + conversion(c, table, oldDefault, collation));
        }
        for (ForeignKey key : keys) {
            execute(c, "ALTER TABLE " + identifier(key.table()) + " " + key.addClause());
        }
    }

    /**
     * {@code DEFAULT CHARACTER SET utf8mb4 COLLATE …, MODIFY …} for every text column of {@code table}
     * that is not utf8mb4. Each column's definition is the server's own line of {@code SHOW CREATE
     * TABLE} (default, nullability, comment), its character set clauses replaced: a column with a
     * binary collation that was not the database's default (declared so) gets {@code utf8mb4_bin},
     * every other one the database's new collation.
     */
    private static String conversion(Connection c, String table, String oldDefault, String collation) throws SQLException {
        Map<String, String> lines = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CREATE TABLE " + identifier(table))) {
            rs.next();
            for (String line : rs.getString(2).split("\n")) {
                String trimmed = line.trim();
                if (trimmed.startsWith("`")) {
                    lines.put(trimmed.endsWith(",") ? trimmed.substring(0, trimmed.length() - 1) : trimmed, trimmed);
                }
            }
        }
        StringBuilder alter = new StringBuilder("DEFAULT CHARACTER SET utf8mb4 COLLATE ").append(collation);
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, COLUMN_TYPE, COLLATION_NAME FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND CHARACTER_SET_NAME IS NOT NULL"
                + " AND CHARACTER_SET_NAME <> 'utf8mb4' ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String column = rs.getString(1);
                    String type = rs.getString(2);
                    String old = rs.getString(3).toLowerCase(Locale.ROOT);
                    String prefix = identifier(column) + " " + type;
                    String definition = lines.keySet().stream().filter(l -> l.startsWith(prefix + " ") || l.equals(prefix))
                            .findFirst().orElseThrow(() -> new DatabaseSetupException("The column " + table + "." + column
                                    + " is not in SHOW CREATE TABLE as its type " + type + "; convert it by hand to utf8mb4."));
                    Matcher clauses = CHARSET_CLAUSES.matcher(definition.substring(prefix.length()));
                    clauses.lookingAt();
                    String rest = definition.substring(prefix.length() + clauses.end());
                    String target = old.endsWith("_bin") && !old.equals(oldDefault) ? "utf8mb4_bin" : collation;
                    alter.append(", MODIFY ").append(prefix).append(" CHARACTER SET utf8mb4 COLLATE ").append(target).append(rest);
                }
            }
        }
        return alter.toString();
    }

    /** Every foreign key of this database over text columns whose table or parent is one of {@code tables} (so they may be converted). */
    private static List<ForeignKey> foreignKeysTouching(Connection c, List<String> tables) throws SQLException {
        Map<String, ForeignKey> keys = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, k.COLUMN_NAME, k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME,"
                        + " r.UPDATE_RULE, r.DELETE_RULE"
                        + " FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r"
                        + " ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME"
                        + " AND r.TABLE_NAME = k.TABLE_NAME"
                        + " WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL"
                        + " AND k.CONSTRAINT_NAME IN (SELECT u.CONSTRAINT_NAME FROM information_schema.KEY_COLUMN_USAGE u"
                        + " JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = u.TABLE_SCHEMA AND c.TABLE_NAME = u.TABLE_NAME"
                        + " AND c.COLUMN_NAME = u.COLUMN_NAME WHERE u.TABLE_SCHEMA = DATABASE() AND u.TABLE_NAME = k.TABLE_NAME"
                        + " AND c.CHARACTER_SET_NAME IS NOT NULL)"
                        + " ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION")) {
            while (rs.next()) {
                String table = rs.getString(1);
                String parent = rs.getString(4);
                if (!tables.contains(table) && !tables.contains(parent)) {
                    continue;
                }
                ForeignKey key = keys.computeIfAbsent(table + "." + rs.getString(2), k -> {
                    try {
                        return new ForeignKey(table, rs.getString(2), new ArrayList<>(), parent, new ArrayList<>(),
                                rs.getString(6), rs.getString(7));
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                key.columns().add(rs.getString(3));
                key.parentColumns().add(rs.getString(5));
            }
        }
        return List.copyOf(keys.values());
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String identifiers(List<String> names) {
        return String.join(", ", names.stream().map(DatabaseCharacterSet::identifier).toList());
    }
}
