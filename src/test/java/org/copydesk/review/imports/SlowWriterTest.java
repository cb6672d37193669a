package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer that does not rename its file in: the drop folder never takes it half-written, reads it
 * to its real end when the writer carries on, and imports what the writer adds even after the file
 * was finished. Time is a {@link StepClock}: nothing here sleeps.
 */
@ExtendWith(DatabaseExtension.class)
class SlowWriterTest {

    private static final String HEADER = "external_id,desk,title,body\n";
    private final DSLContext dsl;
    @TempDir
    Path dir;

    SlowWriterTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeEach
    void desks() {
        DropFolderHarness.newsroom(dsl);
    }

    private ArticleRecord article(String externalId) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq(externalId)).fetchOne();
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The integrator's writer: half a row, a 7 s pause (longer than the 2 s between looks), then the rest. */
    @Test
    void aWriterPausingLongerThanTheLookIntervalIsNotTakenHalfWritten() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Path file = dir.resolve("cms.csv");
        Files.writeString(file, HEADER + "cms-1,news,First,The first story.\ncms-2,news,Second,The second story is cut he");

        assertThat(drop.after(Duration.ZERO)).isZero();
        assertThat(drop.after(Duration.ofSeconds(3))).as("unchanged between two looks is not enough").isZero();
        assertThat(drop.after(Duration.ofSeconds(3))).isZero();
        append(file, "re no more.\ncms-3,news,Third,The third story.\n"); // 7 s after the first bytes
        assertThat(drop.after(Duration.ofSeconds(2))).isZero();
        assertThat(drop.after(DropFolderHarness.QUIET.minusSeconds(2))).as("the quiet period starts again").isZero();
        assertThat(drop.after(Duration.ofSeconds(2))).isEqualTo(1);

        assertThat(drop.read("done/cms.csv.report.txt")).contains("3 row(s) read: 3 imported, 0 already present, 0 kept aside");
        assertThat(article("cms-2").getBody()).isEqualTo("The second story is cut here no more.");
        assertThat(article("cms-3")).isNotNull();
    }

    /** The writer was quiet for longer than the quiet period, then carries on as the file is taken and read. */
    @Test
    void aWriterThatCarriesOnAfterTheFileWasTakenIsReadToItsRealEnd() throws Exception {
        Path file = dir.resolve("cms.csv");
        AtomicInteger looksAtWriters = new AtomicInteger();
        DropFolderHarness drop = new DropFolderHarness(dsl, dir, folder -> {
            if (looksAtWriters.incrementAndGet() == 1) {
                append(file, "ory is whole.\n"); // the writer wakes up just as the file is taken
            }
            return Set.of();
        });
        AtomicInteger waits = new AtomicInteger();
        drop.whileWaiting(() -> {
            if (waits.incrementAndGet() == 2) {
                append(dir.resolve("processing").resolve(only(dir.resolve("processing"))), "cms-3,news,Third,Late story.\n");
            }
        });
        Files.writeString(file, HEADER + "cms-1,news,First,The first story.\ncms-2,news,Second,The second st");

        assertThat(drop.lookUntilQuiet()).isEqualTo(1);

        assertThat(drop.files()).containsExactly("done/cms.csv", "done/cms.csv.report.txt");
        assertThat(drop.read("done/cms.csv.report.txt")).contains("3 row(s) read: 3 imported").doesNotContain("read again");
        assertThat(article("cms-2").getBody()).isEqualTo("The second story is whole.");
        assertThat(article("cms-3").getBody()).isEqualTo("Late story.");
        assertThat(waits.get()).as("the end waited for the quiet period again").isGreaterThanOrEqualTo(5);
    }

    /**
     * The writer kept the file open through a pause longer than the quiet period and wrote on after
     * the import had finished and moved it (a move keeps the inode: the writing lands in done/).
     */
    @Test
    void whatAWriterAddsAfterTheFileWasFinishedIsImportedAsANewDrop() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Path file = dir.resolve("cms.csv");
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            writer.write(StandardCharsets.UTF_8.encode(HEADER + "cms-1,news,First,The first story.\ncms-2,news,Second,Cut sho"));
            assertThat(drop.lookUntilQuiet()).isEqualTo(1);
            assertThat(drop.files()).containsExactly("done/cms.csv", "done/cms.csv.report.txt");
            assertThat(article("cms-2").getBody()).as("the row it was cut in is taken as it was").isEqualTo("Cut sho");

            writer.write(ByteBuffer.wrap("rt by a pause.\ncms-3,news,Third,The third story.\n".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(drop.after(DropFolderHarness.LOOK)).as("changed: waits until it is quiet again").isZero();
        assertThat(drop.after(DropFolderHarness.QUIET)).isEqualTo(1);

        assertThat(drop.files()).containsExactly("done/cms-2.csv", "done/cms-2.csv.report.txt", "done/cms.csv.report.txt");
        assertThat(drop.read("done/cms-2.csv.report.txt")).contains("3 row(s) read: 1 imported, 1 already present",
                "1 revised", "line 3: cms-2", "changed after it had been imported as cms.csv");
        assertThat(drop.read("done/cms.csv.report.txt")).contains("this file changed after the import above");
        assertThat(article("cms-2").getBody()).isEqualTo("Cut short by a pause.");
        assertThat(article("cms-2").getRevision()).isEqualTo(2);
        assertThat(article("cms-3")).isNotNull();
        assertThat(drop.after(Duration.ofHours(2))).as("watched no more").isZero();
    }

    /** Linux shows which process has a file open for writing; such a file is not taken, however quiet. */
    @Test
    void aFileSomeProcessHoldsOpenForWritingIsNotTakenUntilItIsClosed() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "only where /proc shows open files");
        DropFolderHarness drop = new DropFolderHarness(dsl, dir, OpenWriters.forThisSystem());
        Path file = dir.resolve("held.csv");
        Files.writeString(dir.resolve("read-only.csv"), HEADER + "r-1,news,Read,Only read.\n");
        try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             FileChannel reader = FileChannel.open(dir.resolve("read-only.csv"), StandardOpenOption.READ)) {
            writer.write(StandardCharsets.UTF_8.encode(HEADER + "h-1,news,Held,Held open.\n"));
            assertThat(OpenWriters.forThisSystem().openForWriting(dir.toRealPath())).containsExactly(file.toRealPath());
            assertThat(drop.lookUntilQuiet()).as("the file open only for reading is taken").isEqualTo(1);
            assertThat(drop.after(Duration.ofMinutes(5))).isZero();
            assertThat(file).exists();
            assertThat(reader.isOpen()).isTrue();
        }
        assertThat(drop.after(DropFolderHarness.LOOK)).isEqualTo(1);
        assertThat(article("h-1")).isNotNull();
    }

    private static String only(Path folder) {
        try (var files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
