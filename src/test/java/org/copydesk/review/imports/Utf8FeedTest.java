package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8FeedTest {

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
    void badBytesMarkTheirRowAndLineAndAreShownAsAReplacementCharacter() {
        byte[] file = concat(bytes("fine,1\nbad,"), new byte[] {(byte) 0xC3, (byte) 0x28}, bytes("\nfine,3\n"));

        List<RawRecord> rows = Splits.of(file, sink -> new CsvSplitter(sink, ','));

        assertThat(rows).extracting(RawRecord::malformedLine).containsExactly(0L, 2L, 0L);
        assertThat(rows.get(1).text()).isEqualTo("bad,\uFFFD(");
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
        Utf8Feed feed = new Utf8Feed(new ByteArrayInputStream(file), new CsvSplitter(rows::add, ','));

        feed.pump();

        assertThat(feed.bytesRead()).isEqualTo(file.length);
        assertThat(rows).extracting(RawRecord::line).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void aConsumerStopsReadingByThrowingStopReading() {
        List<RawRecord> rows = new ArrayList<>();
        Utf8Feed feed = new Utf8Feed(new ByteArrayInputStream(bytes("a\nb\nc\n")), new CsvSplitter(r -> {
            rows.add(r);
            if (rows.size() == 2) {
                throw new Utf8Feed.StopReading();
            }
        }, ','));

        assertThatThrownBy(feed::pump).isInstanceOf(Utf8Feed.StopReading.class);
        assertThat(rows).extracting(RawRecord::text).containsExactly("a", "b");
    }
}
