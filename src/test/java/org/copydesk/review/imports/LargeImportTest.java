package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** 100,000 rows through the real server; counts are asserted, the time only logged (machines differ). */
@ExtendWith(DatabaseExtension.class)
class LargeImportTest {

    private static final Logger log = LoggerFactory.getLogger(LargeImportTest.class);
    private static final int ROWS = Integer.getInteger("copydesk.large.rows", 100_000);

    private final DSLContext dsl;
    @TempDir
    Path dir;

    LargeImportTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @Test
    void aHundredThousandRowsImportAndImportAgainAsAlreadyPresent() throws IOException {
        ImportTestSupport.reset(dsl);
        Path file = dir.resolve("large.ndjson");
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < ROWS; i++) {
                w.write("{\"external_id\": \"big-" + i + "\", \"desk\": \"" + (i % 2 == 0 ? "news" : "sport")
                        + "\", \"title\": \"Story number " + i + "\", \"byline\": \"Desk writer\", \"priority\": "
                        + (1 + i % 5) + ", \"body\": \"" + "Lorem ipsum dolor sit amet. ".repeat(10) + i + "\"}\n");
            }
        }
        AtomicLong progressCalls = new AtomicLong();
        ArticleImporter importer = new ArticleImporter(dsl, Clock.systemUTC());
        ImportListener listener = new ImportListener() {
            @Override
            public void progress(ImportProgress progress) {
                progressCalls.incrementAndGet();
            }
        };
        ImportReport first = importer.importFile(file, "bulk", listener);
        assertThat(first.rowsRead()).isEqualTo(ROWS);
        assertThat(first.imported()).isEqualTo(ROWS);
        assertThat(first.quarantined()).isZero();
        assertThat(dsl.fetchCount(org.copydesk.db.schema.Tables.ARTICLE)).isEqualTo(ROWS);
        assertThat(progressCalls.get()).isGreaterThanOrEqualTo(ROWS / ImportSettings.defaults().batchRows());

        ImportReport again = importer.importFile(file, "bulk", ImportListener.NONE);
        assertThat(again.alreadyPresent()).isEqualTo(ROWS);
        assertThat(again.imported()).isZero();
        log.info("100,000 rows ({} MB): first import {} ms, re-import {} ms", Files.size(file) >> 20,
                first.duration().toMillis(), again.duration().toMillis());
    }
}
