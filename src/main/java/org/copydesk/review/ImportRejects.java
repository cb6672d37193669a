package org.copydesk.review;

import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.review.imports.CorrectionTemplate;
import org.copydesk.review.imports.ImportCalls;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Rows an import refused (table {@code import_quarantine}), as the supervisor sees them: list, correct
 * and requeue as an article, or discard. A corrected row is one JSON object with the article's
 * fields ({@code desk}, {@code title}, {@code body}; optional {@code external_id}, {@code byline},
 * {@code priority}).
 *
 * <p>The import feature keeps its own, fuller validator; this class only needs the fields an
 * article cannot be created without, so the dashboard works on its own.
 */
public final class ImportRejects {

    /** One refused row. {@code reason} is why the import refused it. */
    public record Reject(long id, String importId, String sourceName, long lineNumber, String rawText, String reason,
                         LocalDateTime createdAt) {
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final DSLContext dsl;
    private final ImportCalls calls;

    ImportRejects(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.calls = new ImportCalls(operations);
    }

    /** Open (unresolved) rows, newest first. */
    public List<Reject> listOpen(int limit) {
        return dsl.selectFrom(IMPORT_QUARANTINE).where(IMPORT_QUARANTINE.RESOLVED_AT.isNull())
                .orderBy(IMPORT_QUARANTINE.ID.desc()).limit(DSL.inline(Math.max(1, limit)))
                .fetch(r -> new Reject(r.getId(), r.getImportId(), r.getSourceName(), r.getLineNumber(), r.getRawText(),
                        r.getReason(), r.getCreatedAt()));
    }

    /**
     * Creates the article from the corrected row and resolves the entry, in one transaction, with an
     * 'import' event by {@code actor}. Throws {@link IllegalArgumentException} saying what is still wrong.
     * Returns the new article's id.
     */
    public long requeue(long rejectId, String correctedJson, String actor) {
        return requeue(rejectId, parse(correctedJson), actor);
    }

    /**
     * The row's fields as text by name, in reading order ({@code external_id}, {@code desk},
     * {@code title}, {@code byline}, {@code body}, {@code priority}, {@code available_at}, then any
     * other): what a correction form starts from, whatever the file's format was.
     */
    public static Map<String, String> fieldsOf(Reject reject) {
        return parse(CorrectionTemplate.jsonFor(reject.rawText()));
    }

    /**
     * Creates the article from the corrected fields (by name, as {@link #fieldsOf}) and resolves
     * the entry, as {@link #requeue(long, String, String)} does.
     */
    public long requeue(long rejectId, Map<String, String> fields, String actor) {
        String desk = required(fields, "desk");
        String title = required(fields, "title");
        String body = required(fields, "body");
        if (title.length() > 300) {
            throw new IllegalArgumentException(Phrase.of("review.quarantine.titleTooLong").text());
        }
        int priority;
        try {
            priority = Integer.parseInt(fields.getOrDefault("priority", "3").strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.priority").text());
        }
        if (priority < 1 || priority > 5) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.priority").text());
        }
        if (!dsl.fetchExists(DESK, DESK.ID.eq(desk))) { // a courtesy: the database checks it too, in fewer words
            throw new IllegalArgumentException(Phrase.of("review.newsroom.noDesk", desk).text());
        }
        LocalDateTime embargo;
        try {
            embargo = CorrectionTemplate.embargoUtc(fields.get("available_at"));
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.availableAt").text());
        }
        LocalDateTime due = CorrectionTemplate.dueUtc(fields.get("due"));
        // the database locks the row, checks it is still open and the id is new, and writes the history
        return calls.correct(actor, rejectId, fields.get("external_id"), desk, title.strip(), fields.get("byline"),
                body, priority, embargo, false, due).articleId();
    }

    /** Marks the row dealt with, without creating an article. */
    public void discard(long rejectId) {
        calls.discard(null, rejectId); // the signed-in supervisor
    }

    private static String required(Map<String, String> fields, String name) {
        String v = fields.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.fieldNeeded", name).text());
        }
        return v;
    }

    private static final String JSON_EXAMPLE = "{\"desk\": \"news\", \"title\": \"\u2026\", \"body\": \"\u2026\"}";

    /** A flat JSON object's fields as text (numbers too); nested values are refused. */
    static Map<String, String> parse(String json) {
        Map<String, String> fields = new LinkedHashMap<>();
        String text = json == null ? "" : json.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.empty", JSON_EXAMPLE).text());
        }
        if (!text.startsWith("{")) {
            throw new IllegalArgumentException(Phrase.of("review.rejects.notJson", JSON_EXAMPLE).text());
        }
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException(Phrase.of("review.rejects.notOneObject", JSON_EXAMPLE).text());
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    throw new IllegalArgumentException(Phrase.of("review.rejects.nested", name).text());
                }
                if (value != JsonToken.VALUE_NULL) {
                    fields.put(name, p.getText());
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(notValidJson(e));
        }
        return fields;
    }

    /** Where the JSON goes wrong, in words, without the parser's own jargon. */
    private static String notValidJson(IOException e) {
        if (e instanceof JsonProcessingException j && j.getLocation() != null && j.getLocation().getLineNr() > 0) {
            return Phrase.of("review.rejects.invalidJsonAt", JSON_EXAMPLE, j.getLocation().getLineNr(),
                    j.getLocation().getColumnNr()).text();
        }
        return Phrase.of("review.rejects.invalidJson", JSON_EXAMPLE).text();
    }
}
