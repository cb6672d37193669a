package org.copydesk.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Copies a migrated schema into an empty database on the same server: the tables (the server's own
 * text of each, foreign keys and all) with their rows, then the views, routines and triggers from
 * the server's own text of them, each created under the SQL mode it was created with. What the copy
 * holds is what the migrations made; {@code SchemaCopyTest} compares the two, object by object, so a
 * kind of object the copy does not know (an event, say) fails there rather than going missing.
 *
 * <p>Names come from the template's own {@code information_schema} and must be plain identifiers;
 * anything else is refused, never quoted into the statements.
 */
final class SchemaCopy {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_]{1,64}");

    private final String template;

    SchemaCopy(String template) {
        this.template = identifier(template);
    }

    /**
     * Fills {@code target}, the schema of {@code c}'s session (empty, created with the template's
     * character set and collation). The session is the product's own (its session variables), as the
     * migrations' was, so views, routines and triggers keep the same connection collation.
     */
    void into(Connection c, String target) throws SQLException {
        identifier(target);
        String sqlMode = scalar(c, "SELECT @@SESSION.sql_mode");
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION foreign_key_checks = 0");
            try {
                Map<String, String> tables = tables(c);
                for (Map.Entry<String, String> t : tables.entrySet()) {
                    if (t.getValue().equals("BASE TABLE")) {
                        s.execute(showCreate(c, "TABLE", t.getKey(), 2));
                        copyRows(c, t.getKey(), target);
                    }
                }
                for (String[] routine : rows(c, "SELECT routine_type, routine_name FROM information_schema.routines"
                        + " WHERE routine_schema = ? ORDER BY routine_name")) {
                    createUnderItsSqlMode(c, routine[0], routine[1]);
                }
                createViews(c, tables, target); // after the routines: a view may call a function
                for (String[] trigger : rows(c, "SELECT trigger_name, trigger_name FROM information_schema.triggers"
                        + " WHERE trigger_schema = ? ORDER BY event_object_table, action_timing, event_manipulation, action_order")) {
                    createUnderItsSqlMode(c, "TRIGGER", trigger[0]);
                }
            } finally {
                s.execute("SET SESSION foreign_key_checks = 1");
                try (PreparedStatement p = c.prepareStatement("SET SESSION sql_mode = ?")) {
                    p.setString(1, sqlMode);
                    p.execute();
                }
            }
        }
    }

    private Map<String, String> tables(Connection c) throws SQLException {
        Map<String, String> tables = new LinkedHashMap<>();
        for (String[] row : rows(c, "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = ?"
                + " ORDER BY table_name")) {
            tables.put(identifier(row[0]), row[1]);
        }
        return tables;
    }

    /** The rows, every column but the generated ones (the server computes those again). */
    private void copyRows(Connection c, String table, String target) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%VIRTUAL%' AND extra NOT LIKE '%STORED%'"
                + " ORDER BY ordinal_position")) {
            p.setString(1, template);
            p.setString(2, table);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    columns.add("`" + identifier(r.getString(1)) + "`");
                }
            }
        }
        String list = String.join(", ", columns);
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO `" + target + "`.`" + table + "` (" + list + ") SELECT " + list
                    + " FROM `" + template + "`.`" + table + "`");
        }
    }

    /** Views name their tables with the schema (the server writes it so); a view on a view waits for it. */
    private void createViews(Connection c, Map<String, String> tables, String target) throws SQLException {
        List<String> pending = new ArrayList<>(tables.entrySet().stream().filter(t -> t.getValue().equals("VIEW"))
                .map(Map.Entry::getKey).toList());
        while (!pending.isEmpty()) {
            List<String> failed = new ArrayList<>();
            SQLException last = null;
            for (String view : pending) {
                String text = showCreate(c, "VIEW", view, 2).replace("`" + template + "`.", "`" + target + "`.");
                try (Statement s = c.createStatement()) {
                    s.execute(text);
                } catch (SQLException e) {
                    failed.add(view);
                    last = e;
                }
            }
            if (failed.size() == pending.size()) {
                throw last;
            }
            pending = failed;
        }
    }

    /** A routine or trigger keeps the SQL mode it was created under; SHOW CREATE says which. */
    private void createUnderItsSqlMode(Connection c, String kind, String name) throws SQLException {
        String showKind = switch (kind) {
            case "PROCEDURE", "FUNCTION", "TRIGGER" -> kind;
            default -> throw new IllegalStateException("unknown kind of routine " + kind);
        };
        String sql = "SHOW CREATE " + showKind + " `" + template + "`.`" + identifier(name) + "`";
        String mode;
        String text;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            mode = r.getString("sql_mode");
            text = r.getString(showKind.equals("TRIGGER") ? "SQL Original Statement" : "Create " + titleCase(showKind));
        }
        if (text == null) {
            throw new IllegalStateException(sql + " gave no text: the test account may not read it");
        }
        try (PreparedStatement p = c.prepareStatement("SET SESSION sql_mode = ?")) {
            p.setString(1, mode);
            p.execute();
        }
        try (Statement s = c.createStatement()) {
            s.execute(text);
        }
    }

    private String showCreate(Connection c, String kind, String name, int column) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SHOW CREATE " + kind + " `" + template + "`.`" + identifier(name) + "`")) {
            r.next();
            return r.getString(column);
        }
    }

    private List<String[]> rows(Connection c, String sql) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, template);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    rows.add(new String[] {r.getString(1), r.getString(2)});
                }
            }
        }
        return rows;
    }

    private static String scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    private static String titleCase(String kind) {
        return kind.charAt(0) + kind.substring(1).toLowerCase(java.util.Locale.ROOT);
    }

    static String identifier(String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain identifier: " + name);
        }
        return name;
    }
}
