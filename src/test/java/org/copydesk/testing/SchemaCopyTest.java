package org.copydesk.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The databases tests get are copies of one the migrations made ({@link TestDatabase#create});
 * these tests hold the copy to be the same schema as a database the migrations made themselves,
 * as the server describes both: every table, column, index, key, check, view, routine (with the
 * SQL mode and collations it was created under), trigger and event, and every row.
 */
class SchemaCopyTest {

    private static TestDatabase migrated;
    private static TestDatabase copied;

    @BeforeAll
    static void bothWays() {
        migrated = TestDatabase.migrated("schema_copy_migrated", 2);
        copied = TestDatabase.create("schema_copy_copied", 2);
    }

    @AfterAll
    static void drop() {
        migrated.close();
        copied.close();
    }

    @Test
    void theCopyIsTheSchemaTheMigrationsMake() {
        Map<String, List<String>> expected = describe(migrated);
        Map<String, List<String>> actual = describe(copied);
        assertThat(expected.get("routines")).as("the comparison sees the routines").hasSizeGreaterThan(50);
        assertThat(expected.get("triggers")).as("the comparison sees the triggers").isNotEmpty();
        assertThat(expected.get("views")).as("the comparison sees the views").isNotEmpty();
        for (String part : expected.keySet()) {
            assertThat(actual.get(part)).as(part).containsExactlyElementsOf(expected.get(part));
        }
    }

    @Test
    void theComparisonSeesAnObjectTheCopyLacks() {
        TestDatabase lacking = TestDatabase.create("schema_copy_lacking", 2);
        try {
            String trigger = lacking.dsl().fetchValue("SELECT MIN(trigger_name) FROM information_schema.triggers"
                    + " WHERE trigger_schema = DATABASE()").toString();
            lacking.dsl().execute("DROP TRIGGER `" + SchemaCopy.identifier(trigger) + "`");
            assertThat(describe(lacking).get("triggers")).isNotEqualTo(describe(migrated).get("triggers"));
        } finally {
            lacking.close();
        }
    }

    private static Map<String, List<String>> describe(TestDatabase db) {
        DSLContext dsl = db.dsl();
        String schema = db.name();
        Map<String, List<String>> parts = new LinkedHashMap<>();
        parts.put("schema", lines(dsl, schema, "SELECT default_character_set_name, default_collation_name"
                + " FROM information_schema.schemata WHERE schema_name = ?"));
        parts.put("tables", lines(dsl, schema, "SELECT table_name, table_type, engine, table_collation, create_options,"
                + " table_comment FROM information_schema.tables WHERE table_schema = ?"));
        parts.put("columns", lines(dsl, schema, "SELECT table_name, column_name, ordinal_position, column_default,"
                + " is_nullable, column_type, character_set_name, collation_name, extra, generation_expression, column_comment"
                + " FROM information_schema.columns WHERE table_schema = ?"));
        parts.put("indexes", lines(dsl, schema, "SELECT table_name, index_name, non_unique, seq_in_index, column_name,"
                + " sub_part, index_type, collation FROM information_schema.statistics WHERE table_schema = ?"));
        parts.put("constraints", lines(dsl, schema, "SELECT table_name, constraint_name, constraint_type"
                + " FROM information_schema.table_constraints WHERE constraint_schema = ?"));
        parts.put("foreign keys", lines(dsl, schema, "SELECT table_name, constraint_name, referenced_table_name,"
                + " unique_constraint_name, update_rule, delete_rule FROM information_schema.referential_constraints"
                + " WHERE constraint_schema = ?"));
        parts.put("key columns", lines(dsl, schema, "SELECT table_name, constraint_name, column_name, ordinal_position,"
                + " referenced_table_name, referenced_column_name FROM information_schema.key_column_usage"
                + " WHERE constraint_schema = ?"));
        parts.put("checks", lines(dsl, schema, "SELECT constraint_name, check_clause FROM information_schema.check_constraints"
                + " WHERE constraint_schema = ?"));
        parts.put("routines", lines(dsl, schema, "SELECT routine_name, routine_type, data_type, routine_definition,"
                + " is_deterministic, sql_data_access, security_type, sql_mode, routine_comment, definer,"
                + " character_set_client, collation_connection, database_collation"
                + " FROM information_schema.routines WHERE routine_schema = ?"));
        // MySQL sends parameter_mode as a raw ENUM, which Connector/J cannot read from a prepared statement's result
        parts.put("parameters", lines(dsl, schema, "SELECT specific_name, ordinal_position, CAST(parameter_mode AS CHAR), parameter_name,"
                + " dtd_identifier FROM information_schema.parameters WHERE specific_schema = ?"));
        parts.put("views", lines(dsl, schema, "SELECT table_name, view_definition, check_option, is_updatable, definer,"
                + " security_type, character_set_client, collation_connection FROM information_schema.views"
                + " WHERE table_schema = ?"));
        parts.put("triggers", lines(dsl, schema, "SELECT trigger_name, event_manipulation, event_object_table, action_order,"
                + " action_statement, action_timing, sql_mode, definer, character_set_client, collation_connection,"
                + " database_collation FROM information_schema.triggers WHERE trigger_schema = ?"));
        parts.put("events", lines(dsl, schema, "SELECT event_name, event_definition FROM information_schema.events"
                + " WHERE event_schema = ?"));
        parts.put("rows", rows(dsl, schema));
        return parts;
    }

    /**
     * Each row as one line, the database's own name replaced so that two databases compare; sorted.
     */
    private static List<String> lines(DSLContext dsl, String schema, String sql) {
        List<String> lines = new ArrayList<>();
        for (Record r : dsl.fetch(sql, schema)) {
            lines.add(r.formatCSV(false).strip().replace(schema, "<schema>"));
        }
        lines.sort(null);
        return lines;
    }

    /**
     * Every row of every table, but when and how fast Flyway applied a script, and the cache of each
     * role's rights, which is keyed by when the routines were last changed (a copy's are newer: its
     * first look at a role's rights fills it again).
     */
    private static List<String> rows(DSLContext dsl, String schema) {
        Set<String> varying = Set.of("installed_on", "execution_time");
        List<String> lines = new ArrayList<>();
        for (String table : dsl.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                + " AND table_type = 'BASE TABLE' AND table_name <> 'role_rights_checked'", schema).getValues(0, String.class)) {
            for (Record r : dsl.fetch("SELECT * FROM `" + SchemaCopy.identifier(table) + "`")) {
                StringBuilder line = new StringBuilder(table);
                for (int i = 0; i < r.size(); i++) {
                    if (!varying.contains(r.field(i).getName().toLowerCase(java.util.Locale.ROOT))) {
                        line.append('|').append(r.field(i).getName()).append('=').append(r.get(i));
                    }
                }
                lines.add(line.toString());
            }
        }
        lines.sort(null);
        return lines;
    }
}
