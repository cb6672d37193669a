package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.review.imports.DropFolderHarness.rows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The watched drop folder: each file once, to done/ or failed/ with a report, and what goes where. */
@ExtendWith(DatabaseExtension.class)
class DropFolderTest {

    private final DSLContext dsl;
    @TempDir
    Path dir;

    DropFolderTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeEach
    void desks() {
        DropFolderHarness.newsroom(dsl);
    }

    @Test
    void eachArrivingFileIsImportedOnceAndMovedWithAReportBesideIt() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Files.writeString(dir.resolve("wire-1.jsonl"), rows("w1", 20, 0));
        Files.writeString(dir.resolve("wire-2.jsonl"), rows("w2", 10, 4));
        Files.write(dir.resolve("broken.json"), new byte[] {(byte) 0xC3, (byte) 0x28, '[', '{'});
        Files.writeString(dir.resolve("wire-3.jsonl.part"), rows("w3", 5, 0)); // still being written

        assertThat(drop.after(Duration.ZERO)).as("nothing is taken at the first look (it may still be written)").isZero();
        assertThat(drop.after(DropFolderHarness.QUIET.minusSeconds(1))).as("nor before the quiet period").isZero();
        assertThat(drop.after(Duration.ofSeconds(1))).isEqualTo(3);

        assertThat(drop.files()).containsExactly("done/wire-1.jsonl", "done/wire-1.jsonl.report.txt", "done/wire-2.jsonl",
                "done/wire-2.jsonl.report.txt", "failed/broken.json", "failed/broken.json.report.txt", "wire-3.jsonl.part");
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(20 + 8);
        assertThat(drop.read("done/wire-2.jsonl.report.txt"))
                .contains("File: wire-2.jsonl", "10 row(s) read: 8 imported, 0 already present, 2 kept aside", "line 4:", "line 8:")
                .containsPattern("note: read [0-9,]+ bytes, SHA-256 [0-9a-f]{64}\\.");
        assertThat(drop.read("failed/broken.json.report.txt")).startsWith("File: broken.json")
                .contains("FAILED: broken.json could not be imported: the file is not UTF-8");
        assertThat(drop.finished).extracting(DropFolder.Finished::failed).containsExactly(true, false, false);

        // the same name again (a resend): imported as a new drop, counted as already present, kept under another name
        Files.writeString(dir.resolve("wire-1.jsonl"), rows("w1", 20, 0));
        drop.lookUntilQuiet();
        assertThat(drop.files()).contains("done/wire-1-2.jsonl", "done/wire-1-2.jsonl.report.txt");
        assertThat(drop.read("done/wire-1-2.jsonl.report.txt")).contains("0 imported, 20 already present");
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(28);
    }

    @Test
    void oneServiceWatchesAFolderAtATime() throws Exception {
        try (var watching = new DropFolderHarness(dsl, dir).folder.lock()) {
            assertThatThrownBy(() -> new DropFolderHarness(dsl, dir).folder.lock())
                    .hasMessageContaining("watching " + dir.toRealPath() + " already");
        }
        DropFolderHarness again = new DropFolderHarness(dsl, dir);
        try (var lock = again.folder.lock()) {
            assertThat(lock).as("free again once the first one stopped").isNotNull();
        }
        assertThat(again.lookUntilQuiet()).as("the lock file is not an import").isZero();
    }

    @Test
    void aFileWhoseOnlyRowBecameANewRevisionIsDoneNotFailed() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        String first = "{\"external_id\":\"rev-1\",\"desk\":\"news\",\"title\":\"Bridge\",\"body\":\"First text.\"}\n";
        Files.writeString(dir.resolve("cms-1.jsonl"), first);
        drop.lookUntilQuiet();
        Files.writeString(dir.resolve("cms-2.jsonl"), first.replace("First text.", "Second text."));
        drop.lookUntilQuiet();

        assertThat(drop.files()).contains("done/cms-2.jsonl", "done/cms-2.jsonl.report.txt").noneMatch(f -> f.startsWith("failed/"));
        assertThat(drop.read("done/cms-2.jsonl.report.txt")).doesNotContain("FAILED").contains("1 revised")
                .contains("(article ", "revision 2): new revision; editors see it now");
        assertThat(drop.finished.get(1).failed()).isFalse();
    }

    @Test
    void emptyAndHeaderOnlyFilesGoToDoneWithANoteAndFilesWithoutTextGoToFailedInOneLine() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Files.write(dir.resolve("empty.csv"), new byte[0]);
        Files.writeString(dir.resolve("header.csv"), "external_id,desk,title,body\r\n");
        byte[] noise = new byte[30_000];
        new Random(3).nextBytes(noise);
        Files.write(dir.resolve("photo.csv"), noise);
        Files.write(dir.resolve("latin.csv"), "external_id,desk,title,body\nL-1,news,Caf\u00e9,b\n".getBytes(StandardCharsets.ISO_8859_1));
        Files.writeString(dir.resolve("columns.csv"), "id,desk,title,body\n" + "1,news,t,b\n".repeat(500));

        drop.lookUntilQuiet();

        assertThat(drop.files()).containsExactly("done/empty.csv", "done/empty.csv.report.txt", "done/header.csv",
                "done/header.csv.report.txt", "failed/columns.csv", "failed/columns.csv.report.txt", "failed/latin.csv",
                "failed/latin.csv.report.txt", "failed/photo.csv", "failed/photo.csv.report.txt");
        assertThat(drop.read("done/empty.csv.report.txt")).contains("note: no rows: the file is empty").doesNotContain("FAILED");
        assertThat(drop.read("done/header.csv.report.txt")).contains("note: no rows: the file holds only its header line");
        assertThat(drop.read("failed/photo.csv.report.txt").lines()).hasSize(2).last().asString()
                .startsWith("FAILED: photo.csv could not be imported: the file is not a text file (")
                .endsWith("); Copydesk imports CSV and JSON text files");
        assertThat(drop.read("failed/latin.csv.report.txt")).contains("looks like Latin-1 or Windows-1252 (line 2 holds the byte 0xE9");
        assertThat(drop.read("failed/columns.csv.report.txt").lines()).hasSize(2)
                .last().asString().contains("it has no column \"external_id\"");
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as("none of them fills the quarantine").isZero();
    }

    @Test
    void theSameBadFileDroppedTwiceKeepsItsBadRowsAsideOnce() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Files.writeString(dir.resolve("wire.jsonl"), rows("b", 12, 4));
        drop.lookUntilQuiet();
        Files.writeString(dir.resolve("wire.jsonl"), rows("b", 12, 4));
        Files.writeString(dir.resolve("wire copy.jsonl"), rows("b", 12, 4));
        drop.lookUntilQuiet();

        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isEqualTo(3);
        String first = dsl.selectDistinct(IMPORT_QUARANTINE.IMPORT_ID).from(IMPORT_QUARANTINE).fetchSingle().value1();
        assertThat(drop.read("done/wire-2.jsonl.report.txt")).as("the report names the import the rows are under")
                .contains("0 imported, 9 already present, 3 kept aside",
                "3 refused rows were kept aside by an earlier import already",
                "not added to the quarantine again: see import " + first,
                "under the earlier import named below")
                .doesNotContainPattern("under import (?!" + java.util.regex.Pattern.quote(first) + ")");
        assertThat(drop.read("done/wire copy.jsonl.report.txt")).contains("3 kept aside");
    }
}
