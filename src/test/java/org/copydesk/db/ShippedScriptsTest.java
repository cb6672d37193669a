package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The quick check of a schema against the scripts in the jar ({@link ShippedScripts}): its checksums
 * are Flyway's, its list is every script in db/, and it says yes only when Flyway would find nothing
 * to do; each way a history can differ (changed, pending, failed, newer) gets a no, and Flyway then
 * does what it must.
 */
class ShippedScriptsTest {

    private TestDatabase db;
    private DSLContext dsl;
    private ShippedScripts shipped;

    @BeforeEach
    void migrated() {
        db = TestDatabase.create("shipped_scripts", 2); // a copy of a schema Flyway migrated, histories included
        dsl = db.dsl();
        shipped = ShippedScripts.inThisJar().orElseThrow(() -> new AssertionError(ShippedScripts.LIST + " is missing from the build"));
    }

    @AfterEach
    void drop() {
        db.close();
    }

    @Test
    void theListNamesEveryScriptInDbAndNothingElse() throws IOException {
        List<String> inDb;
        try (Stream<Path> files = Stream.concat(Files.list(Path.of("db/migration")), Files.list(Path.of("db/routines")))) {
            inDb = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")).sorted().toList();
        }
        assertThat(shipped.scripts().stream().map(ShippedScripts.Script::name).sorted().toList()).isEqualTo(inDb);
    }

    @Test
    void everyChecksumIsTheOneFlywayRecorded() {
        Map<String, Integer> recorded = new HashMap<>();
        dsl.resultQuery("select script, checksum from " + Migrations.SCHEMA_HISTORY + " union all select script, checksum from "
                + Migrations.ROUTINES_HISTORY + " where type = 'SQL'")
                .forEach(r -> recorded.put(r.get(0, String.class), r.get(1, Integer.class)));
        assertThat(shipped.scripts()).hasSize(recorded.size()).allSatisfy(script ->
                assertThat(recorded.get(script.name())).as(script.name()).isEqualTo(script.checksum()));
    }

    @Test
    void aSchemaFlywayMigratedIsKnownAtItsVersionWithoutFlyway() {
        String latest = new Migrations(db.database().dataSource()).latestKnownVersion();
        assertThat(shipped.recordedIn(db.database().dataSource())).contains(latest);
        assertThat(new Migrations(db.database().dataSource()).migrateOrValidate().applied()).isZero();
    }

    @Test
    void aRoutineChangedSinceItWasAppliedGoesToFlywayWhichAppliesItAgain() {
        dsl.execute("update " + Migrations.ROUTINES_HISTORY + " set checksum = checksum + 1 where script = 'R__claim_due_order.sql'");
        assertThat(shipped.recordedIn(db.database().dataSource())).isEmpty();
        assertThat(new Migrations(db.database().dataSource()).migrateOrValidate().applied()).isEqualTo(1);
        assertThat(shipped.recordedIn(db.database().dataSource())).isPresent();
    }

    @Test
    void aFailedRoutineGoesToFlyway() {
        dsl.execute("update " + Migrations.ROUTINES_HISTORY + " set success = 0 where script = 'R__claim_due_order.sql'");
        assertThat(shipped.recordedIn(db.database().dataSource())).isEmpty();
    }

    @Test
    void aRoutineThisVersionNoLongerShipsIsLeftAsFlywayLeavesIt() {
        recordApplied(Migrations.ROUTINES_HISTORY, null, "dropped long ago", "R__dropped_long_ago.sql");
        assertThat(shipped.recordedIn(db.database().dataSource())).isPresent();
    }

    @Test
    void aPendingVersionGoesToFlyway() {
        dsl.execute("delete from " + Migrations.SCHEMA_HISTORY + " where version = '31'");
        assertThat(shipped.recordedIn(db.database().dataSource())).isEmpty();
    }

    @Test
    void aNewerVersionsSchemaGoesToFlyway() {
        recordApplied(Migrations.SCHEMA_HISTORY, "999", "from the future", "V999__from_the_future.sql");
        assertThat(shipped.recordedIn(db.database().dataSource())).isEmpty();
    }

    @Test
    void aVersionedScriptEditedAfterItWasAppliedGoesToFlyway() {
        dsl.execute("update " + Migrations.SCHEMA_HISTORY + " set checksum = checksum + 1 where version = '29'");
        assertThat(shipped.recordedIn(db.database().dataSource())).isEmpty();
    }

    /** A row as Flyway writes one for a script it applied (checksum 42: no file of ours has it). */
    private void recordApplied(String history, String version, String description, String script) {
        dsl.execute("insert into " + history + " (installed_rank, version, description, type, script, checksum, installed_by,"
                + " execution_time, success) select max(installed_rank) + 1, ?, ?, 'SQL', ?, 42, 'copydesk', 1, 1 from " + history,
                version, description, script);
    }

    @Test
    void versionsCompareAsFlywayComparesThem() {
        assertThat(ShippedScripts.compareVersions("31", "4")).isPositive();
        assertThat(ShippedScripts.compareVersions("3.1", "3")).isPositive();
        assertThat(ShippedScripts.compareVersions("3.0", "3")).isZero();
    }
}
