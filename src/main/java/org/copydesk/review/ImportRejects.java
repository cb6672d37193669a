package org.copydesk.review;

import org.copydesk.review.imports.CorrectionTemplate;
import org.copydesk.review.imports.ImportCalls;

import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    public ImportRejects(DSLContext dsl) {
        this.dsl = dsl;
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
            throw new IllegalArgumentException("A title is at most 300 characters.");
        }
        int priority;
        try {
            priority = Integer.parseInt(fields.getOrDefault("priority", "3").strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("priority must be a number from 1 to 5.");
        }
        if (priority < 1 || priority > 5) {
            throw new IllegalArgumentException("priority must be a number from 1 to 5.");
        }
        if (!dsl.fetchExists(DESK, DESK.ID.eq(desk))) { // a courtesy: the database checks it too, in fewer words
            throw new IllegalArgumentException("There is no desk '" + desk + "'.");
        }
        LocalDateTime embargo;
        try {
            embargo = CorrectionTemplate.embargoUtc(fields.get("available_at"));
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("available_at must be an ISO-8601 date-time such as 2025-03-01T09:30:00Z.");
        }
        // the database locks the row, checks it is still open and the id is new, and writes the history
        try {
            return new ImportCalls(dsl).correct(actor, rejectId, fields.get("external_id"), desk, title.strip(), fields.get("byline"),
                    body, priority, embargo, false).articleId();
        } catch (org.jooq.exception.DataAccessException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    /** Marks the row dealt with, without creating an article. */
    public void discard(long rejectId) {
        try {
            new ImportCalls(dsl).discard(null, rejectId); // the signed-in supervisor
        } catch (org.jooq.exception.DataAccessException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    private static String required(Map<String, String> fields, String name) {
        String v = fields.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("The corrected row needs a " + name + ".");
        }
        return v;
    }

    private static final String JSON_EXAMPLE = "{\"desk\": \"news\", \"title\": \"\u2026\", \"body\": \"\u2026\"}";

    /** A flat JSON object's fields as text (numbers too); nested values are refused. */
    static Map<String, String> parse(String json) {
        Map<String, String> fields = new LinkedHashMap<>();
        String text = json == null ? "" : json.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("The corrected row is empty. Write the article's fields as JSON, e.g. "
                    + JSON_EXAMPLE + ".");
        }
        if (!text.startsWith("{")) {
            throw new IllegalArgumentException("The corrected row must be written as JSON between { and }, e.g. "
                    + JSON_EXAMPLE + ", not as it was in the file.");
        }
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("The corrected row must be one JSON object, e.g. " + JSON_EXAMPLE + ".");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    throw new IllegalArgumentException("Field '" + name + "' must be plain text or a number.");
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
        String where = "";
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
                && j.getLocation().getLineNr() > 0) {
            where = " near line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr();
        }
        return "The corrected row is not valid JSON" + where + ". Put each name and each text in double quotes, "
                + "separate the fields with commas, and close the } at the end, e.g. " + JSON_EXAMPLE + ".";
    }
}
