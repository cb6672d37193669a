package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The import streams: batches are committed while the file is still being read, one batch at a
 * time, and a second import of the same file finds every row already present. At a small size
 * (2,000 rows in batches of 250); the 100,000-row volume is {@code bench.LargeImportBenchmark}.
 */
@ExtendWith(DatabaseExtension.class)
class StreamingImportTest {

    private static final int ROWS = 2_000;
    private static final int BATCH = 250;

    private final DSLContext dsl;
    @TempDir
    Path dir;

    StreamingImportTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @Test
    void batchesAreWrittenWhileTheFileIsReadAndAReimportFindsEveryRowPresent() throws IOException {
        ImportTestSupport.reset(dsl);
        Path file = dir.resolve("many.ndjson");
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < ROWS; i++) {
                w.write("{\"external_id\": \"many-" + i + "\", \"desk\": \"" + (i % 2 == 0 ? "news" : "sport")
                        + "\", \"title\": \"Story number " + i + "\", \"body\": \"" + "Lorem ipsum dolor sit amet. ".repeat(10)
                        + i + "\"}\n");
            }
        }
        long size = Files.size(file);
        List<ImportProgress> seen = new ArrayList<>();
        ImportListener listener = new ImportListener() {
            @Override
            public void progress(ImportProgress progress) {
                seen.add(progress);
            }
        };
        ArticleImporter importer = new ArticleImporter(dsl, Clock.systemUTC(),
                new ImportSettings(BATCH, 4 * 1024 * 1024, 100, 64 * 1024, Duration.ofHours(1)));

        ImportReport first = importer.importFile(file, "bulk", listener);

        assertThat(first.imported()).isEqualTo(ROWS);
        assertThat(ImportTestSupport.articles(dsl)).isEqualTo(ROWS);
        List<Long> committed = seen.stream().map(ImportProgress::imported).distinct().toList();
        assertThat(committed).as("one report per batch written, a batch at a time")
                .containsExactly(250L, 500L, 750L, 1000L, 1250L, 1500L, 1750L, 2000L);
        ImportProgress firstBatch = seen.get(0);
        assertThat(firstBatch.bytesRead()).as("the first batch was in the database before a fifth of the file was read")
                .isPositive().isLessThan(size / 5);
        assertThat(seen).allSatisfy(p -> assertThat(p.rowsRead() - p.imported()).as("rows held in memory at a time")
                .isLessThanOrEqualTo(BATCH));

        ImportReport again = importer.importFile(file, "bulk", ImportListener.NONE);
        assertThat(again.alreadyPresent()).isEqualTo(ROWS);
        assertThat(again.imported()).isZero();
        assertThat(ImportTestSupport.orphans(dsl)).isZero();
    }
}
