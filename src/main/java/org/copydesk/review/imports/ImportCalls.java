package org.copydesk.review.imports;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.review.DatabaseOperations;
import org.copydesk.review.Operation;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The database's import operations, one call each ({@link DatabaseOperations} retries them and turns
 * refusals into plain words): supervisors write no table themselves. A batch travels as JSON in one
 * call, so a batch is still one round trip and one transaction.
 *
 * <p>{@code as}: the supervisor the call acts for, normally the signed-in person; the database lets
 * only administrators name someone else.
 */
public final class ImportCalls {

    /** What {@code correct_import_row} did. */
    public record Correction(boolean imported, Long articleId) {
    }

    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    /** What {@code import_articles} and {@code correct_import_row} answer for a row. */
    enum RowOutcome implements DatabaseOperations.Outcome {
        IMPORTED,
        /** The same content is there already. */
        PRESENT,
        /** A new revision of an article: what became of it, as {@link RevisionRow.Kind} says. */
        REVISED, REVISED_HELD, RETURNED, DECIDED, REOPENED
    }

    private final DatabaseOperations operations;

    /** Over {@code dsl}, with Copydesk's default retries. */
    public ImportCalls(DSLContext dsl) {
        this(DatabaseOperations.withDefaultRetries(dsl));
    }

    public ImportCalls(DatabaseOperations operations) {
        this.operations = operations;
    }

    /**
     * One batch, all in or all out: the articles this call created, the rows that met an article
     * already there, and the lines of new articles already past their due time (late on arrival).
     */
    record BatchResult(Map<String, Long> inserted, List<RevisionRow> revisions, List<Long> lateLines) {
    }

    /** One batch, all in or all out. With {@code target.reopen()} a new revision of a decided article reopens it. */
    BatchResult importBatch(List<ValidatedArticle> rows, List<QuarantineEntry> keptAside, ImportTarget target) {
        String source = ImportText.shortenFromStart(target.sourceName(), 500);
        Map<String, Long> inserted = new HashMap<>();
        List<RevisionRow> revisions = new ArrayList<>();
        List<Long> late = new ArrayList<>();
        for (Record r : operations.fetch(Operation.IMPORT_ARTICLES, target.actor(), target.importId(), source,
                rowsJson(rows), keptAsideJson(keptAside), target.reopen() ? 1 : 0)) {
            String code = r.get("outcome", String.class);
            RowOutcome outcome = DatabaseOperations.outcome(Operation.IMPORT_ARTICLES, RowOutcome.class, code);
            String externalId = r.get("external_id", String.class);
            long articleId = r.get("article_id", Long.class);
            if (Integer.valueOf(1).equals(r.get("late", Integer.class))) {
                late.add(r.get("line", Long.class));
            }
            switch (outcome) {
                case IMPORTED -> inserted.put(externalId, articleId);
                case PRESENT -> {
                    // counted by the caller: neither inserted nor a revision
                }
                default -> revisions.add(new RevisionRow(r.get("line", Long.class), externalId, articleId,
                        RevisionRow.Kind.fromCode(code), r.get("revision", Integer.class)));
            }
        }
        return new BatchResult(inserted, revisions, late);
    }

    /**
     * A row an import kept aside, corrected, becomes an article; with {@code resolveIfPresent} an
     * article of that external id already there just closes the row, otherwise it is refused.
     */
    public Correction correct(String as, long quarantineId, String externalId, String desk, String title, String byline, String body,
                              int priority, LocalDateTime availableAt, boolean resolveIfPresent) {
        return correct(as, quarantineId, externalId, desk, title, byline, body, priority, availableAt, resolveIfPresent, null);
    }

    /** The same, with the article's due time (UTC; null: the desk's default, if any), as the import reads {@code due}. */
    public Correction correct(String as, long quarantineId, String externalId, String desk, String title, String byline, String body,
                              int priority, LocalDateTime availableAt, boolean resolveIfPresent, LocalDateTime due) {
        Record r = operations.fetch(Operation.CORRECT_IMPORT_ROW, as, quarantineId, externalId, desk, title,
                byline, body, priority, availableAt == null ? null : TIME.format(availableAt),
                resolveIfPresent ? "resolve" : "refuse", due == null ? null : TIME.format(due)).get(0);
        RowOutcome outcome = DatabaseOperations.outcome(Operation.CORRECT_IMPORT_ROW, RowOutcome.class,
                r.get("outcome", String.class));
        if (outcome != RowOutcome.IMPORTED && outcome != RowOutcome.PRESENT) {
            throw new IllegalStateException("correct_import_row answered '" + outcome.code() + "' for one corrected row");
        }
        return new Correction(outcome == RowOutcome.IMPORTED, r.get("article_id", Long.class));
    }

    public void discard(String as, long quarantineId) {
        operations.execute(Operation.DISCARD_IMPORT_ROW, as, quarantineId);
    }

    /** A quarantined article back in the queue; a title or body given (not blank) replaces the old one. */
    public void requeueArticle(String as, long articleId, String correctedTitle, String correctedBody, String note) {
        operations.execute(Operation.REQUEUE_ARTICLE, as, articleId, correctedTitle, correctedBody, note);
    }

    private static String rowsJson(List<ValidatedArticle> rows) {
        return json(g -> {
            for (ValidatedArticle row : rows) {
                g.writeStartObject();
                g.writeNumberField("line", row.line());
                g.writeStringField("external_id", row.externalId());
                g.writeStringField("desk", row.deskId());
                g.writeStringField("title", row.title());
                g.writeStringField("byline", row.byline());
                g.writeStringField("body", row.body());
                g.writeNumberField("priority", row.priority());
                g.writeStringField("available_at", row.availableAt() == null ? null : TIME.format(row.availableAt()));
                if (row.stage() != null) {
                    g.writeStringField("stage", row.stage());
                }
                if (row.due() != null) {
                    g.writeStringField("due", TIME.format(row.due()));
                }
                g.writeEndObject();
            }
        });
    }

    private static String keptAsideJson(List<QuarantineEntry> entries) {
        return json(g -> {
            for (QuarantineEntry q : entries) {
                g.writeStartObject();
                g.writeNumberField("line", q.line());
                g.writeStringField("raw_text", q.rawText());
                g.writeStringField("reason", ImportText.shorten(q.reason(), 1000));
                g.writeEndObject();
            }
        });
    }

    private interface Elements {
        void write(JsonGenerator g) throws IOException;
    }

    private static String json(Elements elements) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartArray();
            elements.write(g);
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
