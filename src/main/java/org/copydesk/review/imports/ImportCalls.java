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
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The database's import operations ({@code db/routines/R__import_articles.sql} and its siblings), one call each and
 * the only place that names them: supervisors write no table themselves. A batch travels as JSON
 * in one call, so a batch is still one round trip and one transaction.
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

    private final DSLContext dsl;

    public ImportCalls(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** One batch, all in or all out: the articles this call created and the rows that met an article already there. */
    record BatchResult(Map<String, Long> inserted, List<RevisionRow> revisions) {
    }

    /** One batch, all in or all out. With {@code target.reopen()} a new revision of a decided article reopens it. */
    BatchResult importBatch(List<ValidatedArticle> rows, List<QuarantineEntry> keptAside, ImportTarget target) {
        String source = ImportText.shortenFromStart(target.sourceName(), 500);
        Map<String, Long> inserted = new HashMap<>();
        List<RevisionRow> revisions = new ArrayList<>();
        for (Record r : dsl.fetch("call import_articles(?, ?, ?, ?, ?, ?)", target.actor(), target.importId(), source,
                rowsJson(rows), keptAsideJson(keptAside), target.reopen() ? 1 : 0)) {
            String outcome = r.get("outcome", String.class);
            String externalId = r.get("external_id", String.class);
            long articleId = r.get("article_id", Long.class);
            if ("imported".equals(outcome)) {
                inserted.put(externalId, articleId);
            } else {
                RevisionRow.Kind kind = RevisionRow.Kind.fromCode(outcome);
                if (kind != null) {
                    revisions.add(new RevisionRow(r.get("line", Long.class), externalId, articleId, kind,
                            r.get("revision", Integer.class)));
                }
            }
        }
        return new BatchResult(inserted, revisions);
    }

    /**
     * A row an import kept aside, corrected, becomes an article; with {@code resolveIfPresent} an
     * article of that external id already there just closes the row, otherwise it is refused.
     */
    public Correction correct(String as, long quarantineId, String externalId, String desk, String title, String byline, String body,
                              int priority, LocalDateTime availableAt, boolean resolveIfPresent) {
        Record r = dsl.fetchOne("call correct_import_row(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", as, quarantineId, externalId, desk, title,
                byline, body, priority, availableAt == null ? null : TIME.format(availableAt),
                resolveIfPresent ? "resolve" : "refuse");
        return new Correction("imported".equals(r.get("outcome", String.class)), r.get("article_id", Long.class));
    }

    public void discard(String as, long quarantineId) {
        dsl.execute("call discard_import_row(?, ?)", as, quarantineId);
    }

    /** A quarantined article back in the queue; a title or body given (not blank) replaces the old one. */
    public void requeueArticle(String as, long articleId, String correctedTitle, String correctedBody, String note) {
        dsl.execute("call requeue_article(?, ?, ?, ?, ?)", as, articleId, correctedTitle, correctedBody, note);
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
