package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.review.imports.ImportTestSupport.articles;
import static org.copydesk.review.imports.ImportTestSupport.concat;
import static org.copydesk.review.imports.ImportTestSupport.write;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Random;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that are not UTF-8 or UTF-16 text are refused whole, in one sentence, before any row is
 * written: nothing imported, nothing kept aside, the file left as it was.
 */
@ExtendWith(DatabaseExtension.class)
class ImportEncodingTest {

    private final DSLContext dsl;
    private final ArticleImporter importer;
    @TempDir
    Path dir;

    ImportEncodingTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.importer = new ArticleImporter(dsl, Clock.systemUTC());
    }

    @BeforeEach
    void reset() {
        ImportTestSupport.reset(dsl);
    }

    private String refusalOf(Path file) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> importer.importFile(file, "sam", ImportListener.NONE));
        assertThat(t).as(file.getFileName().toString()).isInstanceOf(ImportFailedException.class);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as("nothing kept aside").isZero();
        assertThat(articles(dsl)).as("nothing imported").isZero();
        assertThat(t.getMessage()).as("one line").doesNotContain("\n");
        return t.getMessage();
    }

    @Test
    void latin1TextIsRefusedNamingTheFirstByteAndWhatItMeansNotTurnedIntoReplacementCharacters() {
        Charset latin1 = StandardCharsets.ISO_8859_1;
        StringBuilder csv = new StringBuilder("external_id,desk,title,body\n");
        for (int i = 1; i <= 40; i++) {
            csv.append("L-").append(i).append(",news,").append(i == 30 ? "Caf\u00e9 cr\u00e8me" : "Plain title " + i).append(",b\n");
        }
        Path file = write(dir, "latin1.csv", csv.toString().getBytes(latin1));

        assertThat(refusalOf(file)).isEqualTo("the file is not UTF-8: it looks like Latin-1 or Windows-1252 (line 31 holds the byte"
                + " 0xE9, which is \"\u00e9\" there); save it as UTF-8 (in a spreadsheet: Save As, \"CSV UTF-8\") and import it again");
    }

    @Test
    void aBinaryFileIsOneNotATextFileSentenceNotHundredsOfRows() {
        byte[] noise = new byte[40_000];
        new Random(7).nextBytes(noise);
        assertThat(refusalOf(write(dir, "noise.csv", noise))).startsWith("the file is not a text file (")
                .endsWith("are control codes that text does not hold); Copydesk imports CSV and JSON text files");
        assertThat(refusalOf(write(dir, "book.csv", concat(new byte[] {'P', 'K', 3, 4}, "rest of a workbook"))))
                .contains("a ZIP archive (an Excel .xlsx workbook is one: save it as \"CSV UTF-8\" instead)");
        assertThat(refusalOf(write(dir, "scan.json", concat("%PDF-1.7\n", noise)))).contains("it is a PDF document");
        assertThat(refusalOf(write(dir, "wide.csv", concat(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0},
                "external_id".getBytes(Charset.forName("UTF-32LE")))))).contains("UTF-32");
    }

    @Test
    void aStrayControlByteInARealTextFileOnlyCostsItsRow() {
        ImportReport r = importer.importFile(write(dir, "stray.ndjson", """
                {"external_id": "S-1", "desk": "news", "title": "One", "body": "b"}
                {"external_id": "S-2", "desk": "news", "title": "Two\u0001", "body": "b"}
                {"external_id": "S-3", "desk": "news", "title": "Three", "body": "b"}
                """), "sam", ImportListener.NONE);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(r.quarantined()).isEqualTo(1);
    }
}
