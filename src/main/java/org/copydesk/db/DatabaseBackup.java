package org.copydesk.db;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * {@code copydesk backup}: the newsroom's data and its accounts' sign-in credentials in one file,
 * from one consistent snapshot, on any server Copydesk supports (MariaDB, MySQL 8), without a
 * client tool. The schema itself is not in the file: it is Copydesk's migrations, which a restore
 * runs up to the version the backup names ({@link DatabaseRestore}).
 *
 * <p>The file is gzip-compressed JSON, one object per line: a header (format, schema version,
 * server, time), then per table its columns and one {@code {"r": [...]}} line per row (values as
 * text, binary ones as base64, SQL NULL as null), then the accounts' credentials
 * ({@link AccountCredentials}: hashes, never passwords), then a closing line with the counts, so a
 * cut file is refused. It holds password hashes: keep it as you keep the database.
 */
public final class DatabaseBackup {

    /** The format's name and version in the header. */
    static final String FORMAT = "copydesk-backup";
    static final int FORMAT_VERSION = 1;
    /** Flyway's own table: a restore's migrations write it anew. */
    static final String MIGRATION_HISTORY = "flyway_schema_history";
    /** The only table names Copydesk's schema uses. */
    static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,63}");

    /**
     * The one template backup and restore put a name into SQL with: a table or column name that is
     * the schema's own (read from information_schema, or checked against it), and checked again here
     * against {@link #IDENTIFIER}, so no quote or backtick can reach the statement; quoted.
     */
    static String quoted(String identifier) {
        if (!IDENTIFIER.matcher(identifier).matches()) {
            throw new IllegalStateException("not a plain schema name: " + identifier);
        }
        return "`" + identifier + "`";
    }

    /**
     * What a backup or restore held: the schema version, rows per table, the accounts (with their
     * credentials; without, for the people who have none or whose credential this server cannot
     * take; and, on a restore, those the backup names that are the server's own and were left as
     * they are).
     */
    public record Summary(String schemaVersion, Map<String, Long> rows, List<String> accounts, List<String> accountsWithoutPassword,
                          List<String> serversOwnAccounts) {
        public long totalRows() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private DatabaseBackup() {
    }

    /** Writes the backup of {@code database} to {@code out} (which it closes). */
    public static Summary write(Database database, OutputStream out) {
        String version = new Migrations(database.dataSource()).currentVersion();
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection c = database.dataSource().getConnection();
             JsonGenerator json = new JsonFactory().createGenerator(new GZIPOutputStream(out, 1 << 16), JsonEncoding.UTF8)) {
            json.setRootValueSeparator(new com.fasterxml.jackson.core.io.SerializedString("\n"));
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            }
            json.writeStartObject();
            json.writeStringField("format", FORMAT);
            json.writeNumberField("formatVersion", FORMAT_VERSION);
            json.writeStringField("schemaVersion", version);
            json.writeStringField("server", database.capabilities().product());
            json.writeStringField("takenAtUtc", Instant.now().toString());
            json.writeEndObject();
            for (String table : tables(c)) {
                rows.put(table, writeTable(c, table, json));
            }
            List<String> names = accountNames(c);
            List<AccountCredentials.Credential> credentials = AccountCredentials.read(c, names);
            json.writeStartObject();
            json.writeArrayFieldStart("accounts");
            for (AccountCredentials.Credential credential : credentials) {
                json.writeStartObject();
                json.writeStringField("name", credential.name());
                json.writeStringField("plugin", credential.plugin());
                json.writeStringField("hashHex", credential.hashHex());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
            Summary summary = new Summary(version, rows, credentials.stream().map(AccountCredentials.Credential::name).toList(),
                    names.stream().filter(n -> credentials.stream().noneMatch(cr -> cr.name().equals(n))).toList(), List.of());
            json.writeStartObject();
            json.writeNumberField("endTables", rows.size());
            json.writeNumberField("endRows", summary.totalRows());
            json.writeEndObject();
            c.rollback();
            return summary;
        } catch (SQLException e) {
            throw new DatabaseSetupException("The backup failed: " + e.getMessage()
                    + (e.getErrorCode() == 1142 || e.getErrorCode() == 1044 ? " (run it as the database's owner)" : ""), e);
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot write the backup: " + e.getMessage(), e);
        }
    }

    /**
     * The schema's base tables, in name order, without Flyway's two histories: a restore rebuilds
     * the schema (and the routines, from this release's files) by migrating, which writes them.
     */
    static List<String> tables(Connection c) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            while (rs.next()) {
                String name = rs.getString(1).toLowerCase(java.util.Locale.ROOT);
                if (!name.equals(MIGRATION_HISTORY) && !name.equals(Migrations.ROUTINES_HISTORY) && IDENTIFIER.matcher(name).matches()) {
                    tables.add(name);
                }
            }
        }
        return tables;
    }

    private static long writeTable(Connection c, String table, JsonGenerator json) throws SQLException, IOException {
        long count = 0;
        // streamed row by row (Connector/J's streaming result set), so a large table is never held in memory
        try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            s.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + quoted(table))) {
                ResultSetMetaData meta = rs.getMetaData();
                json.writeStartObject();
                json.writeStringField("table", table);
                json.writeArrayFieldStart("columns");
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    json.writeString(meta.getColumnName(i).toLowerCase(java.util.Locale.ROOT));
                }
                json.writeEndArray();
                json.writeEndObject();
                while (rs.next()) {
                    json.writeStartObject();
                    json.writeArrayFieldStart("r");
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        writeValue(rs, i, meta.getColumnType(i), json);
                    }
                    json.writeEndArray();
                    json.writeEndObject();
                    count++;
                }
            }
        }
        return count;
    }

    private static void writeValue(ResultSet rs, int column, int type, JsonGenerator json) throws SQLException, IOException {
        if (type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY || type == Types.BLOB) {
            byte[] bytes = rs.getBytes(column);
            if (bytes == null) {
                json.writeNull();
            } else {
                json.writeStartObject();
                json.writeStringField("b64", Base64.getEncoder().encodeToString(bytes));
                json.writeEndObject();
            }
            return;
        }
        String text = rs.getString(column);
        if (text == null) {
            json.writeNull();
        } else {
            json.writeString(text);
        }
    }

    /** The newsroom's accounts: its people and the other systems' accounts. */
    private static List<String> accountNames(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT id FROM editor UNION SELECT name FROM integration_account ORDER BY 1")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
