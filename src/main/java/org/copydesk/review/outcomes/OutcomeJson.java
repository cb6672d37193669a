package org.copydesk.review.outcomes;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The one JSON form of an outcome event, used by the feed's JSON lines and the webhook's body
 * (documented in docs/integration.md): a flat object, times in ISO 8601 UTC with microseconds.
 */
public final class OutcomeJson {

    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX");

    private OutcomeJson() {
    }

    /** The event as one line of JSON (no line break inside). */
    public static String of(OutcomeEvent e) {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(text)) {
            g.writeStartObject();
            g.writeNumberField("cursor", e.cursor());
            g.writeStringField("idempotency_key", e.idempotencyKey());
            g.writeStringField("outcome", e.outcome());
            g.writeNumberField("article_id", e.articleId());
            g.writeStringField("external_id", e.externalId());
            g.writeStringField("desk", e.desk());
            g.writeStringField("editor", e.editor());
            g.writeStringField("verdict", e.verdict());
            g.writeStringField("notes", e.notes());
            g.writeStringField("article_status", e.articleStatus());
            g.writeNumberField("send_backs", e.sendBacks());
            g.writeStringField("returns_at", time(e.returnsAt()));
            if (e.leaseToken() == null) {
                g.writeNullField("lease_token");
            } else {
                g.writeNumberField("lease_token", e.leaseToken());
            }
            g.writeStringField("decided_at", time(e.decidedAt()));
            if (e.stageStep()) {
                // only a stage step carries its stages: every other event keeps the exact form it had
                // before stages, which receivers written for it parse
                g.writeStringField("stage", e.stage());
                g.writeStringField("to_stage", e.toStage());
            }
            if (e.deadlineEvent()) {
                // a deadline event carries the stage the article was at and the due time it is about,
                // after the fields every event has, so a receiver that reads those keeps working
                g.writeStringField("stage", e.stage());
                g.writeStringField("due_at", time(e.dueAt()));
            }
            g.writeEndObject();
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return text.toString();
    }

    static String time(LocalDateTime utc) {
        return utc == null ? null : TIME.format(utc.atOffset(ZoneOffset.UTC));
    }
}
