package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FormatSnifferTest {

    private static FormatSniffer.Sniffed sniff(byte[] bytes, String name) throws IOException {
        BufferedInputStream in = new BufferedInputStream(new ByteArrayInputStream(bytes));
        FormatSniffer.Sniffed sniffed = FormatSniffer.sniff(in, name);
        assertThat(in.readAllBytes()).as("the stream is reset to its first byte").isEqualTo(bytes);
        return sniffed;
    }

    private static FormatSniffer.Sniffed sniff(String text, String name) throws IOException {
        return sniff(text.getBytes(StandardCharsets.UTF_8), name);
    }

    @Test
    void aKnownExtensionDecides() throws IOException {
        assertThat(sniff("[1]", "a.csv").format()).isEqualTo(ImportFormat.CSV);
        assertThat(sniff("[1]", "a.NDJSON").format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(sniff("x", "a.jsonl").format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(sniff("a\tb", "a.tsv").delimiter()).isEqualTo('\t');
    }

    @Test
    void aJsonFileIsAnArrayOnlyWhenItStartsWithABracket() throws IOException {
        assertThat(sniff("  \n[{}]", "a.json").format()).isEqualTo(ImportFormat.JSON_ARRAY);
        assertThat(sniff("{}\n{}", "a.json").format()).isEqualTo(ImportFormat.JSON_LINES);
    }

    @Test
    void withoutAKnownExtensionTheFirstSignificantCharacterDecides() throws IOException {
        assertThat(sniff("\uFEFF [ ]", "upload").format()).isEqualTo(ImportFormat.JSON_ARRAY);
        assertThat(sniff("{\"a\":1}", null).format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(sniff("external_id,desk", "feed.dat").format()).isEqualTo(ImportFormat.CSV);
        assertThat(sniff("[1]", "list.txt").format()).as("a .txt that looks like JSON").isEqualTo(ImportFormat.JSON_ARRAY);
        assertThat(sniff("a,b", "list.txt").format()).isEqualTo(ImportFormat.CSV);
    }

    @Test
    void theCsvDelimiterIsTheMostFrequentOnTheHeaderLineOutsideQuotes() throws IOException {
        assertThat(sniff("a;b;c,d\n1,2,3,4,5,6", "f.csv").delimiter()).isEqualTo(';');
        assertThat(sniff("a\tb\tc\n", "f.csv").delimiter()).isEqualTo('\t');
        assertThat(sniff("\"x;y;z\",b\n", "f.csv").delimiter()).isEqualTo(',');
        assertThat(sniff("single\n", "f.csv").delimiter()).isEqualTo(',');
    }

    @Test
    void anEmptyFileHasNoFormatAndTheEncodingComesFromTheByteOrderMarkOrTheZeros() throws IOException {
        assertThat(sniff(" \r\n\t", "a.csv").format()).isNull();
        assertThat(sniff(new byte[0], "a.csv").format()).isNull();
        assertThat(sniff(new byte[] {(byte) 0xFF, (byte) 0xFE, '[', 0}, "a.dat").encoding().charset()).isEqualTo(StandardCharsets.UTF_16LE);
        assertThat(sniff(new byte[] {(byte) 0xFF, (byte) 0xFE, '[', 0}, "a.dat").format()).isEqualTo(ImportFormat.JSON_ARRAY);
        assertThat(sniff(new byte[] {(byte) 0xFE, (byte) 0xFF, 0, 'a'}, "a.csv").encoding().charset()).isEqualTo(StandardCharsets.UTF_16BE);
        assertThat(sniff("{\"a\": 1}".getBytes(StandardCharsets.UTF_16LE), "a.dat").format()).isEqualTo(ImportFormat.JSON_LINES);
        assertThat(sniff(new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF}, "a.csv").encoding().refusal()).contains("UTF-32");
        assertThat(sniff("a;b", "a.csv").encoding().charset()).isEqualTo(StandardCharsets.UTF_8);
        assertThat(sniff("a;b", "a.csv").delimiter()).isEqualTo(';');
    }
}
