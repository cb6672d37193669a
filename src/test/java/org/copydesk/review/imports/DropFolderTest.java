package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.testing.Eventually.await;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.copydesk.review.Newsroom;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The watched drop folder: each file once, to done/ or failed/ with a report, and through a kill -9. */
@ExtendWith(DatabaseExtension.class)
class DropFolderTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final List<DropFolder.Finished> finished = new ArrayList<>();
    private final List<String> waits = new ArrayList<>();

    DropFolderTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @BeforeEach
    void desks() {
        dsl.deleteFrom(IMPORT_QUARANTINE).execute();
        Fixtures.emptyNewsroom(dsl);
        new Newsroom(dsl).addDesk("news", "News", Duration.ofMinutes(30));
    }

    private DropFolder folder(Path dir) {
        return new DropFolder(dir, new ArticleImporter(dsl, Clock.systemUTC()), "importer", Clock.systemUTC(),
                new DropFolder.Listener() {
                    @Override
                    public void finished(DropFolder.Finished file) {
                        finished.add(file);
                    }

                    @Override
                    public void waiting(String name, String why) {
                        waits.add(name + ": " + why);
                    }
                });
    }

    /** JSON lines: {@code rows} articles with ids PREFIX-n; every {@code badEvery}-th row has no desk (kept aside). */
    private static String rows(String prefix, int rows, int badEvery) {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= rows; i++) {
            s.append("{\"external_id\":\"").append(prefix).append('-').append(i).append('"')
                    .append(badEvery > 0 && i % badEvery == 0 ? "" : ",\"desk\":\"news\"")
                    .append(",\"title\":\"Story ").append(i).append("\",\"body\":\"")
                    .append("Words of the story, long enough to make a file of some size. ".repeat(6)).append("\"}\n");
        }
        return s.toString();
    }

    @Test
    void eachArrivingFileIsImportedOnceAndMovedWithAReportBesideIt(@TempDir Path dir) throws Exception {
        DropFolder folder = folder(dir);
        Files.writeString(dir.resolve("wire-1.jsonl"), rows("w1", 20, 0));
        Files.writeString(dir.resolve("wire-2.jsonl"), rows("w2", 10, 4));
        Files.write(dir.resolve("broken.json"), new byte[] {(byte) 0xC3, (byte) 0x28, '[', '{'});
        Files.writeString(dir.resolve("wire-3.jsonl.part"), rows("w3", 5, 0)); // still being written

        assertThat(folder.runOnce()).as("nothing is taken at the first look (it may still be written)").isZero();
        assertThat(folder.runOnce()).isEqualTo(3);

        assertThat(files(dir)).containsExactlyInAnyOrder("wire-3.jsonl.part", "done/wire-1.jsonl", "done/wire-1.jsonl.report.txt",
                "done/wire-2.jsonl", "done/wire-2.jsonl.report.txt", "failed/broken.json", "failed/broken.json.report.txt");
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(20 + 8);
        assertThat(Files.readString(dir.resolve("done/wire-2.jsonl.report.txt")))
                .contains("File: wire-2.jsonl", "10 row(s) read: 8 imported, 0 already present, 2 kept aside", "line 4:", "line 8:");
        assertThat(Files.readString(dir.resolve("failed/broken.json.report.txt"))).startsWith("File: broken.json").contains("FAILED");
        assertThat(finished).extracting(DropFolder.Finished::failed).containsExactlyInAnyOrder(false, false, true);

        // the same name again (a resend): imported as a new drop, counted as already present, kept under another name
        Files.writeString(dir.resolve("wire-1.jsonl"), rows("w1", 20, 0));
        folder.runOnce();
        folder.runOnce();
        assertThat(files(dir)).contains("done/wire-1-2.jsonl", "done/wire-1-2.jsonl.report.txt");
        assertThat(Files.readString(dir.resolve("done/wire-1-2.jsonl.report.txt"))).contains("0 imported, 20 already present");
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(28);
    }

    @Test
    void oneServiceWatchesAFolderAtATime(@TempDir Path dir) throws Exception {
        try (var watching = folder(dir).lock()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> folder(dir).lock())
                    .hasMessageContaining("watching " + dir.toAbsolutePath().normalize() + " already");
        }
        try (var again = folder(dir).lock()) {
            assertThat(again).as("free again once the first one stopped").isNotNull();
        }
        assertThat(folder(dir).runOnce()).as("the lock file is not an import").isZero();
    }

    @Test
    void aFileThatIsStillGrowingIsNotTakenUntilItStops(@TempDir Path dir) throws Exception {
        DropFolder folder = folder(dir);
        Path growing = dir.resolve("slow.jsonl");
        Files.writeString(growing, rows("s", 3, 0));
        folder.runOnce();
        Files.writeString(growing, rows("s", 6, 0));
        assertThat(folder.runOnce()).isZero();
        assertThat(growing).exists();
        assertThat(folder.runOnce()).isEqualTo(1);
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(6);
    }

    /**
     * The service is killed with -9 half-way through a large file (some batches committed), then
     * started again: the file ends in done/ with its report, every article is there once with one
     * import event, and each bad row is kept aside once.
     */
    @Test
    void killedHalfWayThroughAFileItFinishesItAfterARestartWithNothingTwice(@TempDir Path dir) throws Exception {
        int rows = 30_000;
        Files.writeString(dir.resolve("big.jsonl.part"), rows("big", rows, 5_000));
        Files.move(dir.resolve("big.jsonl.part"), dir.resolve("big.jsonl"));
        Path log = dir.getParent().resolve(dir.getFileName() + "-child.log");
        List<String> args = List.of(db.url(), db.endpoint().user(), db.endpoint().password(), dir.toString());

        Process first = ChildJvm.start(WatchFolderProcess.class, args, log);
        try {
            await("a few batches are in", Duration.ofSeconds(120), () -> dsl.fetchCount(ARTICLE) >= 2_000);
            assertThat(dsl.fetchCount(ARTICLE)).as("killed before the end of the file").isLessThan(rows - rows / 5_000);
            first.destroyForcibly().waitFor();
        } finally {
            first.destroyForcibly();
        }
        int before = dsl.fetchCount(ARTICLE);
        assertThat(files(dir)).anyMatch(f -> f.startsWith("processing/") && f.endsWith("--big.jsonl"));
        assertThat(files(dir)).noneMatch(f -> f.startsWith("done/"));

        Process second = ChildJvm.start(WatchFolderProcess.class, args, log.resolveSibling(dir.getFileName() + "-child2.log"));
        try {
            await("the file is done", Duration.ofSeconds(180), () -> Files.exists(dir.resolve("done/big.jsonl.report.txt")));
        } finally {
            second.destroyForcibly().waitFor();
        }
        int bad = rows / 5_000;
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(rows - bad);
        assertThat(before).isLessThan(rows - bad);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("import"))).as("one import event per article").isEqualTo(rows - bad);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as("each bad row kept aside once").isEqualTo(bad);
        assertThat(files(dir)).containsExactlyInAnyOrder("done/big.jsonl", "done/big.jsonl.report.txt");
        assertThat(Files.readString(dir.resolve("done/big.jsonl.report.txt"), StandardCharsets.UTF_8))
                .contains("interrupted", "resumed", String.format("%,d row(s) read", rows));
    }

    /** Every file under dir but the watcher's lock, as relative paths with '/'. */
    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(".watch.lock"))
                    .map(p -> dir.relativize(p).toString().replace('\\', '/')).toList();
        }
    }
}
