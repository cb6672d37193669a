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
            while (json.nextToken() == JsonToken.START_OBJECT) {
                String field = json.nextFieldName();
                if ("table".equals(field)) {
                    String table = json.nextTextValue();
                    if (!schemaTables.contains(table)) {
                        throw new DatabaseSetupException("The backup has a table '" + table + "' that schema version " + version
                                + " does not.");
                    }
                    rows.put(table, restoreTable(c, table, json));
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
            for (AccountCredentials.Credential credential : credentials) {
                AccountCredentials.write(c, credential, database.capabilities().mariaDb()).ifPresentOrElse(accounts::add,
                        () -> without.add(credential.name()));
            }
            return new DatabaseBackup.Summary(version, rows, accounts, without);
        } catch (SQLException e) {
            throw new DatabaseSetupException("The restore failed: " + e.getMessage() + ". The database is only partly restored:"
                    + " drop it and restore again.", e);
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot read the backup: " + e.getMessage(), e);
        }
    }

    private static void requireEmpty(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT DATABASE(), COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()")) {
            rs.next();
            if (rs.getLong(2) > 0) {
                throw new DatabaseSetupException("The database " + rs.getString(1) + " is not empty: restore only into an empty one"
                        + " (a new server, or drop the database first).");
            }
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
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CREATE TRIGGER `" + name + "`")) {
                rs.next();
                triggers.put(name, rs.getString("SQL Original Statement"));
            }
            try (Statement s = c.createStatement()) {
                s.execute("DROP TRIGGER `" + name + "`");
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

    private static long restoreTable(Connection c, String table, JsonParser json) throws IOException, SQLException {
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
            s.execute("DELETE FROM `" + table + "`"); // rows the migrations seeded come back from the backup
        }
        String sql = "INSERT INTO `" + table + "` (`" + String.join("`, `", columns) + "`) VALUES ("
                + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
        long count = 0;
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement(sql)) {
            while (peekRow(json)) {
                for (int i = 1; i <= columns.size(); i++) {
                    bind(insert, i, json);
                }
                json.nextToken(); // end of the row's array
                json.nextToken(); // end of the row's object
                insert.addBatch();
                if (++count % BATCH == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        log.info("Restored {} rows of {}", count, table);
        return count;
    }

    /** Positions the parser on the next row's first value, if the next object is a row. */
    private static boolean peekRow(JsonParser json) throws IOException {
        if (json.nextToken() != JsonToken.START_OBJECT) {
            return false;
        }
        if (!"r".equals(json.nextFieldName())) {
            throw new DatabaseSetupException("The backup file is damaged (a table without its rows' end).");
        }
        json.nextToken(); // start of the array
        return true;
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
