package org.copydesk.review.imports;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Reads one row's text as one JSON object with Jackson's streaming parser (strict JSON). */
final class JsonRowParser {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(RecordText.MAX_CHARS)
                    // rows are flat; deep nesting in an ignored field is only a way to burn the stack
                    .maxNestingDepth(100)
                    .build())
            .build();

    private JsonRowParser() {
    }

    /** @param firstLine the file line the text starts on, to report errors by file line */
    static ParsedRow parse(String text, long firstLine) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken token = p.nextToken();
            if (token != JsonToken.START_OBJECT) {
                return ParsedRow.failed("not a JSON object: each row must be {\"external_id\": ..., ...}");
            }
            Map<String, FieldValue> fields = new LinkedHashMap<>();
            while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                FieldValue value = value(p, p.nextToken());
                String key = name.strip().toLowerCase(Locale.ROOT);
                if (fields.putIfAbsent(key, value) != null) {
                    return ParsedRow.failed("the field \"" + ImportText.shorten(name, 60) + "\" appears twice");
                }
            }
            if (token != JsonToken.END_OBJECT) {
                return ParsedRow.failed("not valid JSON: the object is not closed");
            }
            if (p.nextToken() != null) {
                return ParsedRow.failed("not valid JSON: more text follows the object on line "
                        + fileLine(p.currentTokenLocation(), firstLine) + " (a missing comma?)");
            }
            return ParsedRow.of(fields);
        } catch (JsonProcessingException e) {
            return ParsedRow.failed("not valid JSON at line " + fileLine(e.getLocation(), firstLine) + ": "
                    + ImportText.shorten(e.getOriginalMessage(), 300));
        } catch (IOException | RuntimeException e) {
            // Jackson reports limits and oddities as runtime exceptions too; none of them may end the import.
            return ParsedRow.failed("not valid JSON: " + ImportText.shorten(String.valueOf(e.getMessage()), 300));
        }
    }

    private static FieldValue value(JsonParser p, JsonToken token) throws IOException {
        if (token == null) {
            throw new com.fasterxml.jackson.core.JsonParseException(p, "the object ends without a value");
        }
        return switch (token) {
            case VALUE_STRING -> FieldValue.text(p.getText());
            case VALUE_NUMBER_INT -> new FieldValue(FieldValue.Kind.INTEGER, p.getText());
            case VALUE_NUMBER_FLOAT -> new FieldValue(FieldValue.Kind.DECIMAL, p.getText());
            case VALUE_TRUE, VALUE_FALSE -> new FieldValue(FieldValue.Kind.BOOLEAN, p.getText());
            case VALUE_NULL -> new FieldValue(FieldValue.Kind.NULL, null);
            case START_OBJECT -> {
                p.skipChildren();
                yield new FieldValue(FieldValue.Kind.OBJECT, null);
            }
            case START_ARRAY -> {
                p.skipChildren();
                yield new FieldValue(FieldValue.Kind.ARRAY, null);
            }
            default -> throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected " + token);
        };
    }

    private static long fileLine(JsonLocation location, long firstLine) {
        if (location == null || location.getLineNr() < 1) {
            return firstLine;
        }
        return firstLine + location.getLineNr() - 1;
    }
}
