package org.copydesk.review.imports;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The text a supervisor starts from when correcting a row an import refused: one JSON object with
 * the row's fields, whatever the file's format was. A CSV row is stored with its header line
 * ({@code external_id,desk,…} then the row), which is not what the correction box takes; this reads
 * it with the import's own parsers and writes its fields as JSON, so only the wrong value needs
 * changing.
 */
public final class CorrectionTemplate {

    /** The article's fields in the order people read them; other fields follow in the file's order. */
    private static final List<String> ORDER = List.of("external_id", "desk", "title", "byline", "body", "priority",
            "available_at", "due");
    /** Without these an article cannot be created, so they stay in the template even when empty. */
    private static final List<String> REQUIRED = List.of("desk", "title", "body");
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?[0-9]{1,9}");
    private static final JsonFactory JSON = new JsonFactory();

    private CorrectionTemplate() {
    }

    /**
     * An embargo as a correction gives it, read as an import reads {@code available_at}
     * ({@code docs/import-format.md}, "Times"): in UTC; null when blank.
     *
     * @throws java.time.DateTimeException when it is no ISO-8601 date or date-time
     */
    public static java.time.LocalDateTime embargoUtc(String text) {
        return text == null || text.isBlank() ? null : ArticleRowValidator.parseAvailableAt(text);
    }

    /**
     * A due time as a correction gives it, read as an import reads {@code due} (with an offset; in
     * UTC); null when blank.
     *
     * @throws IllegalArgumentException with the import's one line when it is no date-time with an offset
     */
    public static java.time.LocalDateTime dueUtc(String text) {
        try {
            return text == null || text.isBlank() ? null : DueField.read(FieldValue.text(text));
        } catch (ArticleRowValidator.Refused e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /**
     * The row's fields as a JSON object, pretty-printed. A row that cannot be read at all (broken
     * quoting, not an object) gives an object with the required fields empty.
     */
    public static String jsonFor(String rawText) {
        ParsedRow parsed = rawText == null || rawText.isBlank() ? ParsedRow.failed("empty") : SingleRowReader.read(rawText);
        Map<String, FieldValue> fields = parsed.ok() ? parsed.fields() : Map.of();
        List<String> names = new ArrayList<>();
        for (String name : ORDER) {
            if (fields.containsKey(name) || REQUIRED.contains(name)) {
                names.add(name);
            }
        }
        fields.keySet().stream().filter(n -> !ORDER.contains(n) && !n.isBlank()).forEach(names::add);
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            DefaultPrettyPrinter pretty = new DefaultPrettyPrinter()
                    .withObjectIndenter(new DefaultIndenter("  ", "\n"));
            g.setPrettyPrinter(pretty);
            g.writeStartObject();
            for (String name : names) {
                FieldValue v = fields.get(name);
                String text = v == null || v.text() == null ? "" : v.text();
                boolean emptyOptional = text.isEmpty() && !REQUIRED.contains(name);
                if (emptyOptional || (v != null && (v.kind() == FieldValue.Kind.OBJECT || v.kind() == FieldValue.Kind.ARRAY))) {
                    continue; // nothing to correct there; an article does without it
                }
                g.writeFieldName(name);
                if (v != null && (v.kind() == FieldValue.Kind.INTEGER || v.kind() == FieldValue.Kind.DECIMAL
                        || (v.kind() == FieldValue.Kind.TEXT && name.equals("priority") && WHOLE_NUMBER.matcher(text.strip()).matches()))) {
                    g.writeNumber(text.strip());
                } else if (v != null && v.kind() == FieldValue.Kind.BOOLEAN) {
                    g.writeBoolean(Boolean.parseBoolean(text));
                } else {
                    g.writeString(text);
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing to memory does not fail
        }
        return out.toString();
    }
}
