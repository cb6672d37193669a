package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.review.imports.DropFolderHarness.rows;
import static org.copydesk.testing.Eventually.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watcher process dies as under {@code kill -9} at a row chosen by the test (the import's
 * {@link ImportHook}), with one batch committed and the next one in hand, then is started again:
 * the file ends in done/ with its report, every article is there once with one import event, and
 * each bad row is kept aside once. The file is as small as proves it: one batch of 1,000 rows
 * committed before the stop and rows after it.
 */
@ExtendWith(DatabaseExtension.class)
class DropFolderCrashTest {

    private static final int ROWS = 1_500;
    private static final int BAD_EVERY = 400;
    private static final int HALT_AT = 1_300;

    private final TestDatabase db;
    private final DSLContext dsl;

    DropFolderCrashTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @Test
    void stoppedAtARowOfTheSecondBatchItFinishesTheFileAfterARestartWithNothingTwice(@TempDir Path dir) throws Exception {
        DropFolderHarness.newsroom(dsl);
        Files.writeString(dir.resolve("big.jsonl.part"), rows("big", ROWS, BAD_EVERY));
        Files.move(dir.resolve("big.jsonl.part"), dir.resolve("big.jsonl"));
        Path log = dir.getParent().resolve(dir.getFileName() + "-child.log");
        List<String> args = List.of(db.url(), db.endpoint().user(), db.endpoint().password(), dir.toString());

        Process first = ChildJvm.start(WatchFolderProcess.class, List.of("-D" + ImportHook.HALT_AT_ROW + "=" + HALT_AT), args, log);
        try {
            assertThat(first.waitFor(120, TimeUnit.SECONDS)).as("stopped itself at row " + HALT_AT).isTrue();
        } finally {
            first.destroyForcibly();
        }
        assertThat(first.exitValue()).isEqualTo(ImportHook.HALTED);
        assertThat(dsl.fetchCount(ARTICLE)).as("the first batch (rows 1-1,000, two of them bad) and nothing after it")
                .isEqualTo(1_000 - 2);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isEqualTo(2);
        assertThat(files(dir)).anyMatch(f -> f.startsWith("processing/") && f.endsWith("--big.jsonl"))
                .noneMatch(f -> f.startsWith("done/"));

        Process second = ChildJvm.start(WatchFolderProcess.class, args, log.resolveSibling(dir.getFileName() + "-child2.log"));
        try {
            await("the file is done", Duration.ofSeconds(120), () -> Files.exists(dir.resolve("done/big.jsonl.report.txt")));
        } finally {
            second.destroyForcibly().waitFor();
        }
        int bad = ROWS / BAD_EVERY;
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(ROWS - bad);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("import"))).as("one import event per article")
                .isEqualTo(ROWS - bad);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as("each bad row kept aside once").isEqualTo(bad);
        assertThat(files(dir)).containsExactly("done/big.jsonl", "done/big.jsonl.report.txt");
        assertThat(Files.readString(dir.resolve("done/big.jsonl.report.txt"), StandardCharsets.UTF_8))
                .contains(String.format("%,d row(s) read: %,d imported, %,d already present, %d kept aside", ROWS,
                        ROWS - bad - 998, 998, bad))
                .contains("2 refused rows were kept aside by an earlier import already", "interrupted", "resumed");
    }

    /** Every file under dir but the watcher's lock, as relative paths with '/'. */
    private static List<String> files(Path dir) throws Exception {
        try (var all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(".watch.lock"))
                    .map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
    }
}
