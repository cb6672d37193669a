package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Desktops are upgraded one by one: a client of this release opens a database that a newer
 * release has migrated further (its versioned scripts and its repeatable ones, which this client
 * has never seen) and validates it without complaint (Flyway ignores migrations it does not know
 * that come after its own), rather than refusing to start.
 */
@ExtendWith(DatabaseExtension.class)
class NewerSchemaTest {

    private final TestDatabase db;

    NewerSchemaTest(TestDatabase db) {
        this.db = db;
    }

    @Test
    void aClientValidatesASchemaANewerReleaseMigratedFurther() {
        int rank = db.dsl().fetchOne("select max(installed_rank) from flyway_schema_history").get(0, Integer.class);
        // what a newer release's db migrate leaves: a versioned script and a repeatable one this client lacks
        db.dsl().execute("insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) values (?, '999', 'from a newer release', 'SQL',"
                + " 'V999__from_a_newer_release.sql', 1, 'owner', 1, 1)", rank + 1);
        db.dsl().execute("insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) values (?, null, 'a routine of a newer release', 'SQL',"
                + " 'R__a_routine_of_a_newer_release.sql', 2, 'owner', 1, 1)", rank + 2);

        Migrations migrations = new Migrations(db.database().dataSource());
        assertThatCode(migrations::migrateOrValidate).doesNotThrowAnyException();
        assertThat(migrations.currentVersion()).isEqualTo("999");
    }
}
