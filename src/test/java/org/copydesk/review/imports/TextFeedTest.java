package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextFeedTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void aLeadingByteOrderMarkIsDroppedAndOnlyThere() {
        List<RawRecord> rows = Splits.of(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, bytes("a,b\n\uFEFFc")),
                sink -> new CsvSplitter(sink, ','));

        assertThat(rows).extracting(RawRecord::text).containsExactly("a,b", "\uFEFFc");
    }

    @Test
    void badBytesMarkTheirRowAndLineAndAreShownAsWindows1252ReadsThemNeverAsAReplacementCharacter() {
        byte[] file = concat(bytes("fine,1\nbad,caf"), new byte[] {(byte) 0xE9, (byte) 0x80}, bytes("\nfine,3\n"));

        List<RawRecord> rows = Splits.of(file, sink -> new CsvSplitter(sink, ','));

        assertThat(rows).extracting(RawRecord::malformedLine).containsExactly(0L, 2L, 0L);
        assertThat(rows.get(1).text()).isEqualTo("bad,caf\u00E9\u20AC");
        assertThat(rows.get(1).malformed()).isEqualTo("the bytes 0xE9 0x80, which are not UTF-8 (shown as Windows-1252 reads"
                + " them: \"\u00E9\u20AC\")");
    }

    @Test
    void utf16IsDecodedWithItsLinesCountedAndItsByteOrderMarkDropped() throws Exception {
        byte[] file = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "a,\u00e9\r\nb,\uD83D\uDCF0\n".getBytes(StandardCharsets.UTF_16LE));
        List<RawRecord> rows = new ArrayList<>();
        TextFeed feed = new TextFeed(new ByteArrayInputStream(file), new CsvSplitter(rows::add, ','), StandardCharsets.UTF_16LE);

        feed.pump();

        assertThat(rows).extracting(RawRecord::text).containsExactly("a,\u00e9", "b,\uD83D\uDCF0");
        assertThat(rows).extracting(RawRecord::line).containsExactly(1L, 2L);
        assertThat(feed.bytesRead()).isEqualTo(file.length);
    }

    @Test
    void multiByteCharactersSplitAcrossReadBuffersDecodeWhole() {
        // 64 KiB reads: put a 4-byte character across the first boundary
        String filler = "x".repeat(64 * 1024 - 2);
        String text = filler + "\uD83D\uDE00,\u00E9\n";

        List<RawRecord> rows = Splits.of(text, sink -> new CsvSplitter(sink, ','));

        assertThat(rows).singleElement().extracting(RawRecord::text).isEqualTo(filler + "\uD83D\uDE00,\u00E9");
        assertThat(rows.get(0).malformedLine()).isZero();
    }

    @Test
    void countsBytesAndLinesWithCrLfAsOneLineEnd() throws Exception {
        byte[] file = bytes("a\r\nb\rc\nd");
        List<RawRecord> rows = new ArrayList<>();
        TextFeed feed = new TextFeed(new ByteArrayInputStream(file), new CsvSplitter(rows::add, ','));

        feed.pump();

        assertThat(feed.bytesRead()).isEqualTo(file.length);
        assertThat(rows).extracting(RawRecord::line).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void aConsumerStopsReadingByThrowingStopReading() {
        List<RawRecord> rows = new ArrayList<>();
        TextFeed feed = new TextFeed(new ByteArrayInputStream(bytes("a\nb\nc\n")), new CsvSplitter(r -> {
            rows.add(r);
            if (rows.size() == 2) {
                throw new TextFeed.StopReading();
            }
        }, ','));

        assertThatThrownBy(feed::pump).isInstanceOf(TextFeed.StopReading.class);
        assertThat(rows).extracting(RawRecord::text).containsExactly("a", "b");
    }
}
