package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArticleRowValidatorTest {

    private final ArticleRowValidator validator = new ArticleRowValidator(Map.of("news", "news", "sport", "Sport"), 100);
    private final List<String> refusals = new ArrayList<>();
    private final List<String> unknown = new ArrayList<>();

    private static Map<String, FieldValue> good() {
        Map<String, FieldValue> fields = new LinkedHashMap<>();
        fields.put("external_id", FieldValue.text(" wire-1 "));
        fields.put("desk", FieldValue.text("NEWS"));
        fields.put("title", FieldValue.text("Storm closes the bridge"));
        fields.put("body", FieldValue.text("Line one\n\tLine two"));
        return fields;
    }

    private ValidatedArticle validate(Map<String, FieldValue> fields) {
        return validator.validate(7, fields, "raw text", refusals::add, unknown::add);
    }

    private String refusalOf(String field, FieldValue value) {
        Map<String, FieldValue> fields = good();
        if (value == null) {
            fields.remove(field);
        } else {
            fields.put(field, value);
        }
        assertThat(validate(fields)).as("refused: %s = %s", field, value).isNull();
        assertThat(refusals).hasSize(1);
        String reason = refusals.get(0);
        refusals.clear();
        return reason;
    }

    @Test
    void aGoodRowBecomesAnArticleWithDefaultsAndTrimmedIds() {
        ValidatedArticle a = validate(good());

        assertThat(a).isNotNull();
        assertThat(a.line()).isEqualTo(7);
        assertThat(a.externalId()).isEqualTo("wire-1");
        assertThat(a.deskId()).as("desk matched ignoring case").isEqualTo("news");
        assertThat(a.priority()).isEqualTo(ArticleRowValidator.DEFAULT_PRIORITY);
        assertThat(a.availableAt()).as("now, on the server").isNull();
        assertThat(a.byline()).isNull();
        assertThat(a.rawText()).isEqualTo("raw text");
        assertThat(refusals).isEmpty();
    }

    @Test
    void unknownFieldsAreReportedButDoNotRefuseTheRow() {
        Map<String, FieldValue> fields = good();
        fields.put("colour", FieldValue.text("red"));

        assertThat(validate(fields)).isNotNull();
        assertThat(unknown).containsExactly("colour");
    }

    @Test
    void requiredFieldsMissingEmptyOrOfTheWrongKind() {
        assertThat(refusalOf("external_id", null)).isEqualTo("external_id is missing");
        assertThat(refusalOf("external_id", FieldValue.text("  "))).isEqualTo("external_id is empty");
        assertThat(refusalOf("desk", new FieldValue(FieldValue.Kind.BOOLEAN, "true"))).isEqualTo("desk must be text, not true/false");
        assertThat(refusalOf("title", new FieldValue(FieldValue.Kind.NULL, null))).isEqualTo("title is missing");
        assertThat(refusalOf("body", FieldValue.text(""))).isEqualTo("body is empty");
        assertThat(refusalOf("body", FieldValue.text("\u200B\uFEFF "))).isEqualTo("body has no visible characters");
    }

    @Test
    void anUnknownDeskNamesTheKnownOnes() {
        assertThat(refusalOf("desk", FieldValue.text("weather"))).isEqualTo(
                "desk \"weather\" does not exist (known desks: Sport, news)");
    }

    @Test
    void limitsOfLengthAndSize() {
        assertThat(refusalOf("external_id", FieldValue.text("x".repeat(129)))).contains("longer than 128");
        assertThat(refusalOf("title", FieldValue.text("t".repeat(301)))).isEqualTo(
                "title is 301 characters long; at most 300 are allowed");
        // 34 three-byte characters: 102 bytes against this validator's limit of 100
        assertThat(refusalOf("body", FieldValue.text("\u20AC".repeat(34)))).isEqualTo(
                "body is 102 bytes (UTF-8); at most 100 are allowed");
        assertThat(refusalOf("byline", FieldValue.text("b".repeat(201)))).contains("longer than 200");
    }

    @Test
    void controlCharactersAndBrokenSurrogates() {
        assertThat(refusalOf("title", FieldValue.text("two\nlines"))).isEqualTo(
                "title contains the control character U+000A at position 4");
        assertThat(refusalOf("body", FieldValue.text("nul\u0000here"))).isEqualTo(
                "body contains the control character U+0000 at position 4");
        assertThat(refusalOf("byline", FieldValue.text("a\uD800b"))).contains("unpaired surrogate").contains("position 2");
    }

    @Test
    void priorityIsAWholeNumberFromOneToFive() {
        Map<String, FieldValue> fields = good();
        fields.put("priority", new FieldValue(FieldValue.Kind.INTEGER, "1"));
        assertThat(validate(fields).priority()).isEqualTo(1);
        fields.put("priority", FieldValue.text(" "));
        assertThat(validate(fields).priority()).isEqualTo(ArticleRowValidator.DEFAULT_PRIORITY);

        assertThat(refusalOf("priority", FieldValue.text("6"))).isEqualTo("priority must be from 1 (most urgent) to 5, not 6");
        assertThat(refusalOf("priority", FieldValue.text("high"))).contains("not \"high\"");
        assertThat(refusalOf("priority", new FieldValue(FieldValue.Kind.DECIMAL, "2.5"))).contains("not a decimal number");
    }

    @Test
    void availableAtIsIsoAndBecomesUtc() {
        Map<String, FieldValue> fields = good();
        fields.put("available_at", FieldValue.text("2030-03-01T10:30:00.1234567+01:00"));
        assertThat(validate(fields).availableAt()).isEqualTo(LocalDateTime.of(2030, 3, 1, 9, 30, 0, 123_456_000));
        fields.put("available_at", FieldValue.text("2030-03-01 09:30"));
        assertThat(validate(fields).availableAt()).as("no zone: UTC already").isEqualTo(LocalDateTime.of(2030, 3, 1, 9, 30));
        fields.put("available_at", FieldValue.text("2030-03-01"));
        assertThat(validate(fields).availableAt()).isEqualTo(LocalDateTime.of(2030, 3, 1, 0, 0));

        assertThat(refusalOf("available_at", FieldValue.text("tomorrow"))).contains("is not an ISO-8601 date-time");
        assertThat(refusalOf("available_at", FieldValue.text("1969-12-31T23:00:00Z"))).contains("outside 1970-9999");
        assertThat(refusalOf("available_at", new FieldValue(FieldValue.Kind.INTEGER, "1700000000"))).contains("in quotes");
    }

    @Test
    void utf8LengthCountsBytesAsTheServerStoresThem() {
        assertThat(ArticleRowValidator.utf8Length("a\u00E9\u20AC\uD83D\uDE00")).isEqualTo(1 + 2 + 3 + 4);
        assertThat(ArticleRowValidator.utf8Length("\uD800")).as("a lone surrogate as the replacement's 3 bytes").isEqualTo(3);
    }
}
