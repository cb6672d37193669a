package org.copydesk.testing;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep6;
import org.jooq.impl.DSL;
import org.copydesk.db.schema.tables.records.ArticleRecord;

/** Small builders for test data, written with the generated jOOQ classes. */
public final class Fixtures {

    private Fixtures() {
    }

    public static void desk(DSLContext dsl, String id) {
        dsl.insertInto(DESK, DESK.ID, DESK.NAME).values(id, id).onDuplicateKeyIgnore().execute();
    }

    /**
     * Inserts {@code count} waiting articles on {@code desk} with the given priority, available
     * {@code availableOffsetSeconds} from the server's now (negative: in the past). Returns their ids in order.
     */
    public static List<Long> articles(DSLContext dsl, String desk, int count, int priority, int availableOffsetSeconds) {
        desk(dsl, desk);
        List<Long> ids = new ArrayList<>();
        int chunk = 1000;
        for (int start = 0; start < count; start += chunk) {
            InsertValuesStep6<ArticleRecord, String, String, String, String, Integer, java.time.LocalDateTime> insert =
                    dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY,
                            ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT);
            for (int i = start; i < Math.min(count, start + chunk); i++) {
                insert = insert.values(DSL.val(java.util.UUID.randomUUID().toString()), DSL.val(desk),
                        DSL.val("Article " + i), DSL.val("Body " + i), DSL.val(priority),
                        ServerClock.plus(ServerClock.now(), java.time.Duration.ofSeconds(availableOffsetSeconds)
                                .plusMillis(i)));
            }
            insert.execute();
        }
        List<Long> newest = new ArrayList<>(dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.DESK_ID.eq(desk))
                .and(ARTICLE.PRIORITY.eq(priority)).orderBy(ARTICLE.ID.desc()).limit(count).fetch(ARTICLE.ID));
        java.util.Collections.reverse(newest);
        return newest;
    }

    /**
     * Lets {@code elapsed} pass on the server's clock for the leases of these articles: their
     * expiry moves back by that much (as the test database's administrator). Tests that waited for
     * a lease to run out do this instead of sleeping: fast, and with no race against the clock.
     */
    public static void letTimePass(DSLContext dsl, Duration elapsed, Collection<Long> articleIds) {
        int moved = dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ARTICLE.EXPIRES_AT, elapsed.negated()))
                .where(ARTICLE.ID.in(articleIds)).and(ARTICLE.EXPIRES_AT.isNotNull()).execute();
        if (moved != articleIds.size()) {
            throw new IllegalStateException(moved + " of " + articleIds.size() + " articles had a lease to age");
        }
    }

    /** Empties every newsroom table: articles, history, decisions, drafts, people and desks. */
    public static void emptyNewsroom(DSLContext dsl) {
        dsl.deleteFrom(org.copydesk.db.schema.Tables.REVIEW_DRAFT).execute();
        dsl.deleteFrom(org.copydesk.db.schema.Tables.DECISION).execute();
        dsl.deleteFrom(org.copydesk.db.schema.Tables.IMPORT_QUARANTINE).execute();
        clear(dsl);
        dsl.deleteFrom(org.copydesk.db.schema.Tables.EDITOR_DESK).execute();
        dsl.deleteFrom(org.copydesk.db.schema.Tables.EDITOR).execute();
        dsl.deleteFrom(DESK).execute();
    }

    public static void clear(DSLContext dsl) {
        dsl.deleteFrom(LEASE_EVENT).execute();
        dsl.deleteFrom(ARTICLE).execute();
    }

    /**
     * The news desk with two editors of capacity 5, a holder with no account of its own and an
     * attacker who signs in with {@code attackerPassword}: the cast of the sweep's attack tests.
     */
    public static void holderAndAttacker(DSLContext root, String holder, String attacker, String attackerPassword) {
        org.copydesk.review.Newsroom n = new org.copydesk.review.Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(holder, "Holder", org.copydesk.review.Role.EDITOR, 5, List.of("news"));
        n.addEditor(attacker, "Mallory", org.copydesk.review.Role.EDITOR, 5, List.of("news"));
        new org.copydesk.review.AccountAdministration(root).createAccount(attacker, attackerPassword.toCharArray());
    }
}
