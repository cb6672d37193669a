package org.copydesk.db;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.flywaydb.core.api.MigrationVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code copydesk restore}: a {@link DatabaseBackup} back into an empty database. The schema is
 * built by Copydesk's own migrations up to the backup's version, the rows go back with bind values
 * (never as SQL text from the file), the accounts get their old credentials and then the rights of
 * their roles, and finally the schema is brought up to this Copydesk's version, as
 * {@code db migrate} does. So a backup of an older Copydesk restores into a newer one.
 *
 * <p>While the rows go back the schema's triggers are set aside (they stamp times, write first
 * revisions and check owners, which would change or refuse restored rows) and made again from the
 * server's own text of them afterwards; foreign keys are not checked for this session while the
 * rows go back in table order (the backup is one consistent snapshot). The account's rights are
 * not made here: the caller regrants every account after bringing the schema up to date. A
 * restore that fails part-way leaves a half-filled database: drop it and restore again.
 */
public final class DatabaseRestore {

    private static final Logger log = LoggerFactory.getLogger(DatabaseRestore.class);
    private static final int BATCH = 200;
    /** What {@link #emptyInPlace} drops: the kinds information_schema names, put into the statement as they are. */
    private static final Set<String> DROPPABLE = Set.of("VIEW", "TABLE", "PROCEDURE", "FUNCTION", "EVENT");

    private DatabaseRestore() {
    }

    /** Restores the backup in {@code in} (which it closes) into {@code database}, which must be empty. */
    public static DatabaseBackup.Summary restore(Database database, InputStream in) {
        Migrations migrations = new Migrations(database.dataSource());
        try (Connection c = database.dataSource().getConnection();
             JsonParser json = new JsonFactory().createParser(new GZIPInputStream(in, 1 << 16))) {
            requireEmpty(c);
            Map<String, String> header = readHeader(json);
            String version = header.get("schemaVersion");
            String known = migrations.latestKnownVersion();
            if (MigrationVersion.fromVersion(version).isNewerThan(known)) {
                throw new DatabaseSetupException("The backup is of schema version " + version + ", newer than this Copydesk knows ("
                        + known + "); restore it with the Copydesk that took it, or a newer one.");
            }
            migrations.migrateTo(version);
            c.setAutoCommit(true);
            Map<String, String> triggers = setTriggersAside(c);
            Map<String, Long> rows = new LinkedHashMap<>();
            List<AccountCredentials.Credential> credentials = new ArrayList<>();
            long expectedRows = -1;
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION foreign_key_checks = 0");
            }
            Set<String> schemaTables = new TreeSet<>(DatabaseBackup.tables(c));
            TableLoader loader = null;
            while (json.nextToken() == JsonToken.START_OBJECT) {
                String field = json.nextFieldName();
                if ("r".equals(field) && loader != null) {
                    loader.add(json);
                    continue;
                }
                if (loader != null) {
                    rows.put(loader.table, loader.finish());
                    loader = null;
                }
                if ("table".equals(field)) {
                    String table = json.nextTextValue();
                    if (!schemaTables.contains(table)) {
                        throw new DatabaseSetupException("The backup has a table '" + table + "' that schema version " + version
                                + " does not.");
                    }
                    loader = TableLoader.start(c, table, json);
                } else if ("accounts".equals(field)) {
                    credentials = readAccounts(json);
                } else if ("endTables".equals(field)) {
                    json.nextToken();
                    json.nextFieldName();
                    expectedRows = json.nextLongValue(-1);
                    json.nextToken();
                    break;
                } else {
                    throw new DatabaseSetupException("The backup file is damaged (an unexpected '" + field + "').");
                }
            }
            long restored = rows.values().stream().mapToLong(Long::longValue).sum();
            if (expectedRows != restored) {
                throw new DatabaseSetupException("The backup file is cut short (" + restored + " rows read"
                        + (expectedRows < 0 ? ", no closing line" : ", " + expectedRows + " written") + "); nothing more was restored.");
            }
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION foreign_key_checks = 1");
            }
            restoreTriggers(c, triggers);
            List<String> accounts = new ArrayList<>();
            List<String> without = new ArrayList<>();
            List<String> serversOwn = new ArrayList<>();
            for (AccountCredentials.Credential credential : credentials) {
                if (AccountCredentials.serversOwn(c, credential.name())) {
                    log.warn("The backup names the account '{}', one of this server's own; left as it is", credential.name());
                    serversOwn.add(credential.name());
                    continue;
                }
                AccountCredentials.write(c, credential, database.capabilities().mariaDb()).ifPresentOrElse(accounts::add,
                        () -> without.add(credential.name()));
            }
            return new DatabaseBackup.Summary(version, rows, accounts, without, serversOwn);
        } catch (SQLException e) {
            throw new DatabaseSetupException("The restore failed: " + e.getMessage() + ". The database is only partly restored:"
                    + " drop it and restore again.", e);
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot read the backup: " + e.getMessage(), e);
        }
    }

    /**
     * A database holding a newsroom's data (people, desks or articles) is refused. One with the
     * schema but no data (a new team server migrates at its first start) is emptied, schema and
     * all, so the backup's own version can be built in it.
     */
    private static void requireEmpty(Connection c) throws SQLException {
        String name;
        List<String> tables = DatabaseBackup.tables(c);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
            rs.next();
            name = rs.getString(1);
        }
        if (!DatabaseBackup.IDENTIFIER.matcher(name).matches()) {
            throw new DatabaseSetupException("Copydesk restores only into a database named with letters, digits and _ (not " + name + ").");
        }
        long rows = 0;
        for (String table : List.of("editor", "desk", "article")) {
            if (tables.contains(table)) {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + DatabaseBackup.quoted(table))) {
                    rs.next();
                    rows += rs.getLong(1);
                }
            }
        }
        if (rows > 0) {
            throw new DatabaseSetupException("The database " + name + " is not empty (it holds a newsroom's people, desks or articles):"
                    + " restore only into an empty one (a new server, or drop the database first).");
        }
        boolean anything;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM information_schema.tables"
                + " WHERE table_schema = DATABASE())"
                + " + (SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = DATABASE())")) {
            rs.next();
            anything = rs.getLong(1) > 0;
        }
        if (anything) {
            log.info("The database {} has Copydesk's schema but no data: emptying it for the restore", name);
            emptyInPlace(c, name);
        }
    }

    /**
     * Drops every view, table, routine and event of the connection's database, but not the database
     * itself: between a {@code DROP DATABASE} and its {@code CREATE} any connection opened with
     * {@code createDatabaseIfNotExist} (the running server's own, or this pool's next one) makes it
     * again, and the {@code CREATE} then fails with "database exists".
     */
    private static void emptyInPlace(Connection c, String name) throws SQLException {
        List<String> statements = new ArrayList<>();
        String objects = "SELECT 'VIEW', table_name FROM information_schema.views WHERE table_schema = DATABASE()"
                + " UNION ALL SELECT 'TABLE', table_name FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'"
                + " UNION ALL SELECT routine_type, routine_name FROM information_schema.routines WHERE routine_schema = DATABASE()"
                + " UNION ALL SELECT 'EVENT', event_name FROM information_schema.events WHERE event_schema = DATABASE()";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(objects)) {
            while (rs.next()) {
                String kind = rs.getString(1);
                String object = rs.getString(2);
                if (!DROPPABLE.contains(kind) || !DatabaseBackup.IDENTIFIER.matcher(object).matches()) {
                    throw new DatabaseSetupException("The database " + name + " holds " + kind.toLowerCase(java.util.Locale.ROOT) + " '"
                            + object + "' that Copydesk did not make; drop the database and restore again.");
                }
                statements.add("DROP " + kind + " IF EXISTS " + DatabaseBackup.quoted(object));
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION foreign_key_checks = 0");
            for (String statement : statements) {
                s.execute(statement);
            }
            s.execute("SET SESSION foreign_key_checks = 1");
        }
    }

    private static Map<String, String> readHeader(JsonParser json) throws IOException {
        Map<String, String> header = new LinkedHashMap<>();
        if (json.nextToken() != JsonToken.START_OBJECT) {
            throw new DatabaseSetupException("This is not a Copydesk backup.");
        }
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            json.nextToken();
            header.put(name, json.getValueAsString());
        }
        if (!DatabaseBackup.FORMAT.equals(header.get("format"))) {
            throw new DatabaseSetupException("This is not a Copydesk backup.");
        }
        if (!Integer.toString(DatabaseBackup.FORMAT_VERSION).equals(header.get("formatVersion"))) {
            throw new DatabaseSetupException("This backup's format (" + header.get("formatVersion")
                    + ") is newer than this Copydesk reads.");
        }
        return header;
    }

    /** Drops the schema's triggers and returns how the server had them, to make them again. */
    private static Map<String, String> setTriggersAside(Connection c) throws SQLException {
        Map<String, String> triggers = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT trigger_name FROM information_schema.triggers WHERE trigger_schema = DATABASE() ORDER BY action_order")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        for (String name : names) {
            if (!DatabaseBackup.IDENTIFIER.matcher(name).matches()) {
                throw new DatabaseSetupException("The schema has a trigger '" + name + "' Copydesk did not make.");
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CREATE TRIGGER " + DatabaseBackup.quoted(name))) {
                rs.next();
                triggers.put(name, rs.getString("SQL Original Statement"));
            }
            try (Statement s = c.createStatement()) {
                s.execute("DROP TRIGGER " + DatabaseBackup.quoted(name));
            }
        }
        return triggers;
    }

    private static void restoreTriggers(Connection c, Map<String, String> triggers) throws SQLException {
        for (String statement : triggers.values()) {
            try (Statement s = c.createStatement()) {
                s.execute(statement); // the server's own text of a trigger our migrations made
            }
        }
    }

    /** Puts one table's rows back, in batches of prepared inserts, in one transaction. */
    private static final class TableLoader {
        private final Connection c;
        private final String table;
        private final int columns;
        private final PreparedStatement insert;
        private long count;

        private TableLoader(Connection c, String table, int columns, PreparedStatement insert) {
            this.c = c;
            this.table = table;
            this.columns = columns;
            this.insert = insert;
        }

        /** Reads the table's columns (the parser is after its name), checks them and empties the table. */
        static TableLoader start(Connection c, String table, JsonParser json) throws IOException, SQLException {
            json.nextFieldName(); // columns
            json.nextToken();
            List<String> columns = new ArrayList<>();
            while (json.nextToken() == JsonToken.VALUE_STRING) {
                columns.add(json.getText());
            }
            json.nextToken(); // end of the table's object
            Set<String> known = columnsOf(c, table);
            for (String column : columns) {
                if (!known.contains(column)) {
                    throw new DatabaseSetupException("The backup's table " + table + " has a column '" + column + "' the schema does not.");
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM " + DatabaseBackup.quoted(table)); // rows the migrations seeded come back from the backup
            }
            c.setAutoCommit(false);
            String sql = "INSERT INTO " + DatabaseBackup.quoted(table) + " ("
                    + String.join(", ", columns.stream().map(DatabaseBackup::quoted).toList()) + ") VALUES ("
                    + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
            return new TableLoader(c, table, columns.size(), c.prepareStatement(sql));
        }

        /** One row (the parser is after its field name). */
        void add(JsonParser json) throws IOException, SQLException {
            json.nextToken(); // start of the array
            for (int i = 1; i <= columns; i++) {
                bind(insert, i, json);
            }
            if (json.nextToken() != JsonToken.END_ARRAY) {
                throw new DatabaseSetupException("The backup file is damaged (a row of " + table + " with too many values).");
            }
            json.nextToken(); // end of the row's object
            insert.addBatch();
            if (++count % BATCH == 0) {
                insert.executeBatch();
            }
        }

        long finish() throws SQLException {
            try {
                insert.executeBatch();
                c.commit();
            } finally {
                insert.close();
                c.setAutoCommit(true);
            }
            log.info("Restored {} rows of {}", count, table);
            return count;
        }
    }

    private static void bind(PreparedStatement insert, int index, JsonParser json) throws IOException, SQLException {
        JsonToken token = json.nextToken();
        if (token == JsonToken.VALUE_NULL) {
            insert.setNull(index, Types.VARCHAR);
        } else if (token == JsonToken.START_OBJECT) {
            json.nextFieldName();
            insert.setBytes(index, Base64.getDecoder().decode(json.nextTextValue()));
            json.nextToken();
        } else {
            insert.setString(index, json.getText());
        }
    }

    private static Set<String> columnsOf(Connection c, String table) throws SQLException {
        Set<String> columns = new TreeSet<>();
        try (PreparedStatement s = c.prepareStatement("SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = DATABASE() AND table_name = ?")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return columns;
    }

    private static List<AccountCredentials.Credential> readAccounts(JsonParser json) throws IOException {
        List<AccountCredentials.Credential> credentials = new ArrayList<>();
        json.nextToken(); // start of the array
        while (json.nextToken() == JsonToken.START_OBJECT) {
            Map<String, String> fields = new LinkedHashMap<>();
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                fields.put(name, json.nextTextValue());
            }
            credentials.add(new AccountCredentials.Credential(fields.get("name"), fields.get("plugin"), fields.get("hashHex")));
        }
        json.nextToken(); // end of the accounts' object
        return credentials;
    }
}
