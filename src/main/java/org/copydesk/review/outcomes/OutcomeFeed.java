package org.copydesk.review.outcomes;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.time.LocalDateTime;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.copydesk.review.Phrase;

/**
 * Reads the feed of outcomes from the view {@code outcome_feed} (db/routines/R__outcome_feed.sql), the one thing an
 * integration account of kind feed_reader may read. Reading from a cursor gives the events after
 * it in cursor order, the same ones every time; new events only ever get larger cursors.
 *
 * <p>Cursors are handed out in commit order: the database writes each event while holding the one
 * row of {@code outcome_order} until its transaction commits, so no event with a smaller cursor can
 * appear after a reader has seen a larger one. A reader that keeps the last cursor it saw never
 * misses an event.
 */
public final class OutcomeFeed {

    static final Table<Record> VIEW = table(name("outcome_feed"));
    static final Field<Long> CURSOR = field(name("cursor_id"), Long.class);
    static final Field<String> KEY = field(name("idempotency_key"), String.class);
    static final Field<String> OUTCOME = field(name("outcome"), String.class);
    static final Field<Long> ARTICLE = field(name("article_id"), Long.class);
    static final Field<String> EXTERNAL = field(name("external_id"), String.class);
    static final Field<String> DESK = field(name("desk_id"), String.class);
    static final Field<String> EDITOR = field(name("editor_id"), String.class);
    static final Field<String> VERDICT = field(name("verdict"), String.class);
    static final Field<String> NOTES = field(name("notes"), String.class);
    static final Field<String> STATUS = field(name("article_status"), String.class);
    static final Field<Integer> SEND_BACKS = field(name("send_backs"), Integer.class);
    static final Field<LocalDateTime> RETURNS = field(name("returns_at"), LocalDateTime.class);
    static final Field<Long> TOKEN = field(name("lease_token"), Long.class);
    static final Field<LocalDateTime> DECIDED = field(name("decided_at"), LocalDateTime.class);
    static final Field<String> STAGE = field(name("stage_id"), String.class);
    static final Field<String> TO_STAGE = field(name("to_stage_id"), String.class);
    static final Field<LocalDateTime> DUE = field(name("due_at"), LocalDateTime.class);

    private final DSLContext dsl;

    public OutcomeFeed(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Up to {@code limit} events after {@code cursor} (0: from the start), in cursor order. */
    public List<OutcomeEvent> since(long cursor, int limit) {
        if (cursor < 0) {
            throw new IllegalArgumentException(Phrase.of("review.feed.cursor").text());
        }
        try {
            return dsl.select(CURSOR, KEY, OUTCOME, ARTICLE, EXTERNAL, DESK, EDITOR, VERDICT, NOTES, STATUS, SEND_BACKS,
                            RETURNS, TOKEN, DECIDED, STAGE, TO_STAGE, DUE)
                    .from(VIEW).where(CURSOR.gt(cursor)).orderBy(CURSOR).limit(Math.max(1, Math.min(limit, 10_000)))
                    .fetch(OutcomeFeed::event);
        } catch (RuntimeException e) {
            throw FeedMissing.explain(e);
        }
    }

    static OutcomeEvent event(Record r) {
        return new OutcomeEvent(r.get(CURSOR), r.get(KEY), r.get(OUTCOME), r.get(ARTICLE), r.get(EXTERNAL), r.get(DESK),
                r.get(EDITOR), r.get(VERDICT), r.get(NOTES), r.get(STATUS), r.get(SEND_BACKS), r.get(RETURNS), r.get(TOKEN),
                r.get(DECIDED), r.get(STAGE), r.get(TO_STAGE), r.get(DUE));
    }
}
