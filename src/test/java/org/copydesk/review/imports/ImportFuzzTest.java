package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hundreds of mangled files from a fixed seed (truncated, bytes flipped, invalid UTF-8, wrong types,
 * huge fields, duplicate ids, injection text): a fixed number of files from a fixed seed, so every run
 * tries the same files and a failure repeats. Whatever comes in: no exception but a file refused whole
 * in one sentence (which writes nothing), every row read is imported, already present or quarantined,
 * and every article has its import event.
 * Set {@code -Dcopydesk.fuzz.files=N -Dcopydesk.fuzz.seed=S} for a longer or another run.
 */
@ExtendWith(DatabaseExtension.class)
class ImportFuzzTest {

    private static final Logger log = LoggerFactory.getLogger(ImportFuzzTest.class);
    private static final String[] NASTY = {
        "'; DROP TABLE article; --", "\\u0000", "\\ud800", "<script>alert(1)</script>", "${jndi:ldap://x/a}",
        "\u202E", "\"", "\\\"", "\n", "\r\n", ",", ";", "[", "]", "{", "}", "\uFEFF", "null", "1e309", "-0",
        "\uD83D\uDCF0", "%s%n", "\t"};

    private final DSLContext dsl;
    private final ArticleImporter importer;

    ImportFuzzTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.importer = new ArticleImporter(dsl, Clock.systemUTC(), new ImportSettings(7, 64 * 1024, 10, 4096,
                java.time.Duration.ofMillis(100)));
    }

    @Test
    void mangledFilesNeverCrashAndEveryRowIsAccountedFor() {
        ImportTestSupport.reset(dsl);
        int files = Integer.getInteger("copydesk.fuzz.files", 150);
        long seed = Long.getLong("copydesk.fuzz.seed", 20241122L);
        Random random = new Random(seed);
        long rows = 0;
        long imported = 0;
        int refusedFiles = 0;
        for (int done = 0; done < files; done++) {
            String[] names = {"f.json", "f.ndjson", "f.csv", "f.dat"};
            String name = names[random.nextInt(names.length)];
            byte[] content = mutate(random, base(random, name, done), random.nextInt(4));
            int before = dsl.fetchCount(ARTICLE);
            int keptBefore = dsl.fetchCount(IMPORT_QUARANTINE);
            String context = "file " + done + " (" + name + "): " + new String(content, 0, Math.min(content.length, 400),
                    StandardCharsets.UTF_8);
            ImportReport r;
            try {
                r = importer.importStream(new ByteArrayInputStream(content), "fuzz-" + done + "-" + name,
                        content.length, "fuzzer", ImportListener.NONE);
            } catch (ImportFailedException refused) {
                // a file refused whole (not text, or a CSV header without a column an article needs) writes nothing
                assertThat(refused.getMessage()).as(context).doesNotContain("\n").doesNotContain("Exception");
                assertThat(dsl.fetchCount(ARTICLE)).as(context).isEqualTo(before);
                assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).as(context).isEqualTo(keptBefore);
                refusedFiles++;
                continue;
            }
            assertThat(r.imported() + r.alreadyPresent() + r.revisionRows().size() + r.quarantined()).as(context)
                    .isEqualTo(r.rowsRead());
            assertThat(dsl.fetchCount(ARTICLE) - before).as(context).isEqualTo((int) r.imported());
            assertThat(dsl.fetchCount(IMPORT_QUARANTINE, IMPORT_QUARANTINE.IMPORT_ID.eq(r.importId())) + r.keptAsideBefore())
                    .as(context).isEqualTo(r.quarantined());
            assertThat(ImportTestSupport.orphans(dsl)).as(context + "\n" + r).isZero();
            rows += r.rowsRead();
            imported += r.imported();
        }
        assertThat(ImportTestSupport.orphans(dsl)).as("every article has its import event and vice versa").isZero();
        // nothing partial: what was stored is within the column rules the validator promises
        assertThat(dsl.fetchCount(ARTICLE, org.jooq.impl.DSL.charLength(ARTICLE.TITLE).eq(0)
                .or(org.jooq.impl.DSL.charLength(ARTICLE.BODY).eq(0)))).isZero();
        log.info("fuzz: {} files from seed {}, {} refused whole, {} rows read, {} imported", files, seed, refusedFiles, rows,
                imported);
        assertThat(refusedFiles).as("most mangled files are still read row by row").isLessThan(files / 4);
        assertThat(imported).as("some files survive their mutations, so the import path itself is exercised").isPositive();
        assertThat(rows).as("and others are read as rows, whatever their state").isGreaterThan(imported);
    }

    private static byte[] base(Random random, String name, int fileNo) {
        int n = 1 + random.nextInt(12);
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // ids repeat across files and within a file on purpose: duplicates and re-imports
            String id = "Z-" + random.nextInt(fileNo / 3 + 20);
            String title = random.nextInt(5) == 0 ? NASTY[random.nextInt(NASTY.length)] : "Title " + i;
            String body = random.nextInt(30) == 0 ? "b".repeat(70_000 + random.nextInt(10_000))
                    : random.nextInt(5) == 0 ? NASTY[random.nextInt(NASTY.length)] + " body" : "Body " + i;
            String desk = random.nextInt(10) == 0 ? "nowhere" : random.nextBoolean() ? "news" : "sport";
            String priority = String.valueOf(random.nextInt(7));
            String at = random.nextInt(4) == 0 ? "2030-01-0" + (1 + random.nextInt(9)) + "T10:00:00+02:00" : "";
            rows.add(new String[] {id, desk, title, body, priority, at});
        }
        StringBuilder b = new StringBuilder();
        if (name.endsWith(".csv") || name.endsWith(".dat") && random.nextBoolean()) {
            b.append("external_id,desk,title,body,priority,available_at\n");
            for (String[] r : rows) {
                for (int i = 0; i < r.length; i++) {
                    b.append(i == 0 ? "" : ",").append('"').append(r[i].replace("\"", "\"\"")).append('"');
                }
                b.append('\n');
            }
        } else {
            boolean array = name.endsWith(".json") && random.nextBoolean();
            b.append(array ? "[\n" : "");
            for (int k = 0; k < rows.size(); k++) {
                String[] r = rows.get(k);
                String priority = random.nextInt(6) == 0 ? "\"" + r[4] + "\"" : random.nextInt(8) == 0 ? "[1]" : r[4];
                b.append("{\"external_id\": ").append(random.nextInt(10) == 0 ? "12.5" : "\"" + r[0] + "\"")
                        .append(", \"desk\": \"").append(r[1]).append("\", \"title\": \"").append(r[2])
                        .append("\", \"body\": \"").append(r[3]).append("\", \"priority\": ").append(priority);
                if (!r[5].isEmpty()) {
                    b.append(", \"available_at\": \"").append(r[5]).append('"');
                }
                b.append('}').append(array && k < rows.size() - 1 ? "," : "").append('\n');
            }
            b.append(array ? "]\n" : "");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] mutate(Random random, byte[] content, int mutations) {
        byte[] out = content;
        for (int m = 0; m < mutations && out.length > 0; m++) {
            int at = random.nextInt(out.length);
            switch (random.nextInt(6)) {
                case 0 -> out = java.util.Arrays.copyOf(out, at); // truncate
                case 1 -> out[at] = (byte) random.nextInt(256); // flip a byte (often invalid UTF-8)
                case 2 -> out = splice(out, at, new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xED, (byte) 0xA0, (byte) 0x80});
                case 3 -> out = splice(out, at, NASTY[random.nextInt(NASTY.length)].getBytes(StandardCharsets.UTF_8));
                case 4 -> {
                    int len = Math.min(out.length - at, random.nextInt(40));
                    byte[] cut = new byte[out.length - len];
                    System.arraycopy(out, 0, cut, 0, at);
                    System.arraycopy(out, at + len, cut, at, out.length - at - len);
                    out = cut;
                }
                default -> out = splice(out, at, java.util.Arrays.copyOfRange(out, at, Math.min(out.length, at + random.nextInt(200))));
            }
        }
        return out;
    }

    private static byte[] splice(byte[] content, int at, byte[] insert) {
        byte[] out = new byte[content.length + insert.length];
        System.arraycopy(content, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(content, at, out, at + insert.length, content.length - at);
        return out;
    }
}
