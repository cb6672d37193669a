package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.review.imports.ImportTestSupport.orphans;
import static org.copydesk.review.imports.ImportTestSupport.write;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(DatabaseExtension.class)
class ImportQuarantineTest {

    private final DSLContext dsl;
    private final ArticleImporter importer;
    private final ImportQuarantine quarantine;
    @TempDir
    Path dir;

    ImportQuarantineTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.importer = new ArticleImporter(dsl, Clock.systemUTC());
        this.quarantine = new ImportQuarantine(dsl);
    }

    @BeforeEach
    void reset() {
        ImportTestSupport.reset(dsl);
    }

    @Test
    void listsOpenRowsPerImportAndResolvesThem() {
        ImportReport first = importer.importFile(write(dir, "one.ndjson", "{\"external_id\": \"Q-1\"}\n{\"x\": 1}\n"), "sam", null);
        ImportReport second = importer.importFile(write(dir, "two.ndjson", "not json\n"), "sam", null);
        assertThat(quarantine.listOpen(null, 100)).hasSize(3);
        List<QuarantinedRow> rows = quarantine.listOpen(first.importId(), 100);
        assertThat(rows).extracting(QuarantinedRow::lineNumber).containsExactly(1L, 2L);
        assertThat(rows.get(0).sourceName()).endsWith("one.ndjson");
        assertThat(rows.get(0).reason()).isEqualTo("desk is missing");
        assertThat(rows.get(0).createdAt()).isNotNull();
        assertThat(quarantine.countOpen(second.importId())).isEqualTo(1);

        assertThat(quarantine.dismiss(rows.get(0).id(), null)).isTrue();
        assertThat(quarantine.dismiss(rows.get(0).id(), null)).as("already resolved").isFalse();
        assertThat(quarantine.countOpen(first.importId())).isEqualTo(1);
    }

    @Test
    void theSameBadRowsDroppedAgainUnderAnyNameAreReportedButKeptAsideOnce() throws Exception {
        String bad = """
                {"external_id": "D-1", "desk": "news", "title": "Good", "body": "b"}
                {"external_id": "D-2", "desk": "nowhere", "title": "Bad desk", "body": "b"}
                {"external_id": "D-3", "desk": "news", "title": "", "body": "b"}
                """;
        ImportReport first = importer.importFile(write(dir, "wire.ndjson", bad), "sam", null);
        ImportReport again = importer.importFile(write(dir, "wire (1).ndjson", bad), "sam", null);
        java.nio.file.Files.createDirectories(dir.resolve("later"));
        ImportReport third = importer.importFile(write(dir.resolve("later"), "wire.ndjson", bad), "sam", null);

        assertThat(first.quarantined()).isEqualTo(2);
        assertThat(first.keptAsideBefore()).isZero();
        assertThat(List.of(again, third)).allSatisfy(r -> {
            assertThat(r.quarantined()).as("still reported by line").isEqualTo(2);
            assertThat(r.problems()).extracting(ImportProblem::line).containsExactly(2L, 3L);
            assertThat(r.keptAsideBefore()).isEqualTo(2);
            assertThat(r.warnings()).anyMatch(w -> w.startsWith("2 refused rows were kept aside by an earlier import already"));
        });
        assertThat(dsl.fetchCount(org.copydesk.db.schema.Tables.IMPORT_QUARANTINE)).as("kept aside once").isEqualTo(2);

        // dealt with (dismissed) counts too: a dismissed row dropped again does not come back
        List<QuarantinedRow> open = quarantine.listOpen(first.importId(), 10);
        assertThat(quarantine.dismiss(open.get(0).id(), null)).isTrue();
        importer.importFile(write(dir, "wire (2).ndjson", bad), "sam", null);
        assertThat(dsl.fetchCount(org.copydesk.db.schema.Tables.IMPORT_QUARANTINE)).isEqualTo(2);
        assertThat(quarantine.countOpen(null)).isEqualTo(1);
    }

    @Test
    void requeueingACorrectedJsonRowImportsItAndResolvesTheEntry() {
        ImportReport r = importer.importFile(write(dir, "fix.json",
                "[{\"external_id\": \"F-1\", \"desk\": \"nwes\", \"title\": \"Typo desk\", \"body\": \"b\"}]"), "sam", null);
        QuarantinedRow row = quarantine.listOpen(r.importId(), 10).get(0);

        RequeueResult still = quarantine.requeue(row.id(), row.rawText(), "pat");
        assertThat(still.outcome()).isEqualTo(RequeueResult.Outcome.STILL_INVALID);
        assertThat(still.reason()).contains("desk \"nwes\" does not exist");

        RequeueResult done = quarantine.requeue(row.id(), row.rawText().replace("nwes", "news"), "pat");
        assertThat(done.outcome()).isEqualTo(RequeueResult.Outcome.IMPORTED);
        assertThat(dsl.fetchValue(dsl.select(ARTICLE.TITLE).from(ARTICLE).where(ARTICLE.ID.eq(done.articleId()))))
                .isEqualTo("Typo desk");
        assertThat(dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ROW_KEY.eq(String.valueOf(done.articleId()))).fetchOne())
                .satisfies(e -> {
                    assertThat(e.value1()).isEqualTo("pat");
                    assertThat(e.value2()).contains(r.importId()).contains("requeued from import quarantine entry #" + row.id());
                });
        assertThat(quarantine.countOpen(r.importId())).isZero();
        assertThat(quarantine.requeue(row.id(), row.rawText(), "pat").outcome()).isEqualTo(RequeueResult.Outcome.NOT_OPEN);
        assertThat(orphans(dsl)).isZero();
    }

    @Test
    void requeueingACsvRowUsesTheHeaderKeptWithItAndAnExistingIdResolvesAsAlreadyPresent() {
        ImportReport r = importer.importFile(write(dir, "fix.csv",
                "external_id,desk,title,body,priority\nG-1,news,Fine,b,\nG-2,news,Bad priority,b,9\nG-1,news,Dup,b,\n"), "sam", null);
        List<QuarantinedRow> rows = quarantine.listOpen(r.importId(), 10);
        assertThat(rows).hasSize(2);
        QuarantinedRow bad = rows.get(0);
        assertThat(bad.rawText()).isEqualTo("external_id,desk,title,body,priority\nG-2,news,Bad priority,b,9");
        RequeueResult fixed = quarantine.requeue(bad.id(), bad.rawText().replace(",9", ",1"), "pat");
        assertThat(fixed.outcome()).isEqualTo(RequeueResult.Outcome.IMPORTED);
        assertThat(dsl.fetchValue(dsl.select(ARTICLE.PRIORITY).from(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq("G-2")))).isEqualTo(1);

        RequeueResult dup = quarantine.requeue(rows.get(1).id(), rows.get(1).rawText(), "pat");
        assertThat(dup.outcome()).isEqualTo(RequeueResult.Outcome.ALREADY_PRESENT);
        assertThat(quarantine.countOpen(r.importId())).isZero();
        assertThat(quarantine.requeue(rows.get(1).id(), "external_id,desk\nonly,two\nrows,three", "pat").outcome())
                .isEqualTo(RequeueResult.Outcome.NOT_OPEN);
    }

    @Test
    void aCorrectedTextThatIsNotOneRowIsRefusedWithAReason() {
        ImportReport r = importer.importFile(write(dir, "x.ndjson", "{\"a\": 1}\n"), "sam", null);
        long id = quarantine.listOpen(r.importId(), 1).get(0).id();
        assertThat(quarantine.requeue(id, "", "pat").reason()).contains("empty");
        assertThat(quarantine.requeue(id, "external_id,desk,title,body\nA,news,t,b\nB,news,t,b", "pat").reason())
                .contains("exactly one row");
        assertThat(quarantine.requeue(id, "{\"external_id\": \"Z\", ", "pat").reason()).startsWith("not valid JSON");
        assertThat(quarantine.countOpen(r.importId())).isEqualTo(1);
    }
}
