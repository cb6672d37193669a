package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonArraySplitterTest {

    private final List<String> warnings = new ArrayList<>();

    private List<RawRecord> split(String text) {
        return Splits.of(text, sink -> new JsonArraySplitter(sink, warnings::add));
    }

    @Test
    void everyElementIsARowFoundByBracketsOutsideStrings() {
        List<RawRecord> rows = split("[\n {\"a\": \"x,]}\"},\n {\"b\": [1, {\"c\": 2}]}, 7 ,\"s\\\"]\"\n]\n");

        assertThat(rows).extracting(RawRecord::text)
                .containsExactly("{\"a\": \"x,]}\"}", "{\"b\": [1, {\"c\": 2}]}", "7", "\"s\\\"]\"");
        assertThat(rows).extracting(RawRecord::line).containsExactly(2L, 3L, 3L, 3L);
        assertThat(rows).extracting(RawRecord::structuralProblem).containsOnlyNulls();
        assertThat(warnings).isEmpty();
    }

    @Test
    void aBrokenElementStaysInsideItsOwnRow() {
        List<RawRecord> rows = split("[{\"a\": 1}, {\"b\" 2}, {\"c\": 3}]");

        assertThat(rows).extracting(RawRecord::text).containsExactly("{\"a\": 1}", "{\"b\" 2}", "{\"c\": 3}");
    }

    @Test
    void strayCommasLoseNothingAndAreSkipped() {
        assertThat(split("[,{\"a\":1},,{\"b\":2},]")).extracting(RawRecord::text).containsExactly("{\"a\":1}", "{\"b\":2}");
    }

    @Test
    void aFileCutOffInsideAnObjectOrAStringSaysSo() {
        assertThat(split("[{\"a\": 1}, {\"b\": {\"c\": 2}").get(1).structuralProblem()).contains("inside this object");
        assertThat(split("[{\"a\": \"unfinished").get(0).structuralProblem()).contains("inside a string");
        assertThat(split("[{\"a\": 1}, 5").get(1).structuralProblem()).contains("without closing the array");
    }

    @Test
    void anArrayNeverClosedBetweenElementsIsAWarningNotARow() {
        List<RawRecord> rows = split("[{\"a\": 1},\n");

        assertThat(rows).extracting(RawRecord::text).containsExactly("{\"a\": 1}");
        assertThat(warnings).singleElement().asString().contains("not closed");
    }

    @Test
    void textOutsideTheArrayIsABadRow() {
        List<RawRecord> before = split("oops [{\"a\": 1}]");
        List<RawRecord> after = split("[{\"a\": 1}] trailing");

        assertThat(before).singleElement().extracting(RawRecord::structuralProblem).asString().contains("outside");
        assertThat(after).hasSize(2);
        assertThat(after.get(1).text()).isEqualTo("trailing");
        assertThat(after.get(1).structuralProblem()).contains("outside the top-level array");
    }
}
