package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvSplitterTest {

    @Test
    void aRecordEndsAtALineEndOutsideQuotesAndStartsOnItsFirstLine() {
        List<RawRecord> rows = Splits.csv("a,b\n\"x\ny\",z\nlast,row");

        assertThat(rows).extracting(RawRecord::text).containsExactly("a,b", "\"x\ny\",z", "last,row");
        assertThat(rows).extracting(RawRecord::line).containsExactly(1L, 2L, 4L);
        assertThat(rows).extracting(RawRecord::structuralProblem).containsOnlyNulls();
    }

    @Test
    void blankLinesAreSkippedAndEveryKindOfLineEndCounts() {
        List<RawRecord> rows = Splits.csv("a\r\n\r\n   \rb\rc\n\n");

        assertThat(rows).extracting(RawRecord::text).containsExactly("a", "b", "c");
        assertThat(rows).extracting(RawRecord::line).containsExactly(1L, 4L, 5L);
    }

    @Test
    void aDoubledQuoteStaysInsideTheQuotedFieldAndAQuoteMidFieldOpensNothing() {
        List<RawRecord> rows = Splits.csv("\"say \"\"hi\"\"\nthere\",1\nab\"c,2\nnext,3");

        assertThat(rows).extracting(RawRecord::text).containsExactly("\"say \"\"hi\"\"\nthere\",1", "ab\"c,2", "next,3");
    }

    @Test
    void theDelimiterIsTheOneGiven() {
        List<RawRecord> rows = Splits.of("\"a;b\";\"c\nd\"\ne;f", sink -> new CsvSplitter(sink, ';'));

        assertThat(rows).extracting(RawRecord::text).containsExactly("\"a;b\";\"c\nd\"", "e;f");
    }

    @Test
    void anUnclosedQuoteSwallowsTheRestIntoOneBadRowThatSaysSo() {
        List<RawRecord> rows = Splits.csv("ok,1\n\"open,2\nlost,3\nlost,4");

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).structuralProblem()).isNull();
        assertThat(rows.get(1).line()).isEqualTo(2);
        assertThat(rows.get(1).text()).isEqualTo("\"open,2\nlost,3\nlost,4");
        assertThat(rows.get(1).structuralProblem()).contains("never closed");
    }
}
