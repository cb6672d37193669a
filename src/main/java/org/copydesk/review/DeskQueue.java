package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * One desk's queue as a supervisor reads it: what waits, in the order claims take it; what is
 * scheduled (an embargo not yet over); what a supervisor holds; and what is with the writers.
 * Articles an editor holds now are not here ("Who holds what" shows them).
 *
 * <p>Claims take waiting articles by priority, then work that came back before fresh work, then
 * the time they became available, then number (the index {@code ix_article_claim}); the position
 * here is that order within the desk. An article kept from one editor waits for the others.
 */
public final class DeskQueue {

    /** Where an article stands. */
    public enum Place {
        /** Claimable now: the next claims take these, in this order. */
        WAITING,
        /** Embargoed: no claim takes it before {@code availableAt}. */
        SCHEDULED,
        /** Held by a supervisor: no claim takes it until the hold is released. */
        HELD,
        /** Sent back to its writer; it comes back with a new revision. */
        WITH_WRITERS
    }

    /**
     * One article in the queue.
     *
     * @param position   for waiting articles, the place in claim order on this desk (1 is next); 0 otherwise
     * @param cameBack   it was sent back to its writer before and came back ({@code attempts} times)
     * @param keptFrom   the editor a supervisor keeps it from, or null
     * @param heldBy     the supervisor who holds it, or null
     */
    public record Item(long id, String title, String desk, int priority, Place place, int position, LocalDateTime availableAt,
                       int attempts, int revision, boolean cameBack, String keptFrom, String heldBy, LocalDateTime heldAt) {
    }

    /** The desk's queue, read at {@code serverNow}; {@code waitingTotal} may exceed the waiting items listed. */
    public record Snapshot(String desk, LocalDateTime serverNow, List<Item> items, int waitingTotal) {

        public List<Item> in(Place place) {
            return items.stream().filter(i -> i.place() == place).toList();
        }
    }

    /** How many waiting articles are listed at most (in claim order: the ones next claims take). */
    public static final int WAITING_SHOWN = 500;
    private static final int OTHERS_SHOWN = 500;
    /** The {@link Snapshot#desk()} of a read of every desk. */
    public static final String ALL_DESKS = "";

    private final DSLContext dsl;

    public DeskQueue(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** The desk's queue now. */
    public Snapshot of(String desk) {
        return find(desk, "", List.of());
    }

    /**
     * The queue of {@code desk}, or of every desk when it is null (each waiting article's position
     * is then its place on its own desk), narrowed to articles whose title or external id contains
     * {@code text} or that {@code people} hold or are kept from, when {@code text} is not blank.
     *
     * <p>Stays bounded for the whole floor: the claim index ({@code ix_article_claim}) begins with
     * the status and goes in claim order without the desk, so every desk's waiting articles are
     * walked in claim order and the read stops after the first {@link #WAITING_SHOWN}. Positions of
     * a search's matches are not their places in the queue (the others in between are not read): 0.
     */
    public Snapshot find(String desk, String text, Collection<String> people) {
        LocalDateTime now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        Field<LocalDateTime> at = DSL.val(now);
        Condition onDesk = desk == null ? DSL.trueCondition() : ARTICLE.DESK_ID.eq(desk);
        boolean searching = text != null && !text.isBlank();
        Condition matches = searching ? matching(text.strip(), people) : DSL.trueCondition();
        Condition free = ARTICLE.LOCKED_BY.isNull().or(ARTICLE.EXPIRES_AT.le(at));
        Condition queued = ARTICLE.STATUS.eq(ArticleStatus.queued).and(free).and(onDesk).and(matches);
        List<Item> items = new ArrayList<>();
        Map<String, Integer> position = new HashMap<>();
        read(queued.and(ARTICLE.HELD_AT.isNull()).and(ARTICLE.AVAILABLE_AT.le(at)), WAITING_SHOWN,
                r -> item(r, Place.WAITING, searching ? 0 : position.merge(r.get(ARTICLE.DESK_ID), 1, Integer::sum)), items,
                ARTICLE.PRIORITY, ARTICLE.DUE_ORDER, ARTICLE.QUEUE_LANE, ARTICLE.AVAILABLE_AT, ARTICLE.ID);
        read(queued.and(ARTICLE.HELD_AT.isNull()).and(ARTICLE.AVAILABLE_AT.gt(at)), OTHERS_SHOWN,
                r -> item(r, Place.SCHEDULED, 0), items, ARTICLE.AVAILABLE_AT, ARTICLE.ID);
        read(queued.and(ARTICLE.HELD_AT.isNotNull()), OTHERS_SHOWN, r -> item(r, Place.HELD, 0), items, ARTICLE.HELD_AT, ARTICLE.ID);
        read(ARTICLE.STATUS.eq(ArticleStatus.awaiting_writer).and(onDesk).and(matches), OTHERS_SHOWN,
                r -> item(r, Place.WITH_WRITERS, 0), items, ARTICLE.DECIDED_AT, ARTICLE.ID);
        int waiting = dsl.fetchCount(ARTICLE, queued.and(ARTICLE.HELD_AT.isNull()).and(ARTICLE.AVAILABLE_AT.le(at)));
        return new Snapshot(desk == null ? ALL_DESKS : desk, now, List.copyOf(items), waiting);
    }

    /** Title or external id containing the text (its % and _ match themselves), or held by / kept from one of {@code people}. */
    private static Condition matching(String text, Collection<String> people) {
        Condition c = ARTICLE.TITLE.containsIgnoreCase(text).or(ARTICLE.EXTERNAL_ID.containsIgnoreCase(text));
        return people.isEmpty() ? c : c.or(ARTICLE.HELD_BY.in(people)).or(ARTICLE.KEPT_FROM.in(people));
    }

    private void read(Condition which, int limit, java.util.function.Function<Record, Item> toItem, List<Item> into,
                      org.jooq.OrderField<?>... order) {
        dsl.select(ARTICLE.ID, ARTICLE.TITLE, ARTICLE.DESK_ID, ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT, ARTICLE.ATTEMPTS,
                        ARTICLE.REVISION, ARTICLE.KEPT_FROM, ARTICLE.HELD_BY, ARTICLE.HELD_AT)
                .from(ARTICLE).where(which).orderBy(order).limit(DSL.inline(limit))
                .fetch().forEach(r -> into.add(toItem.apply(r)));
    }

    private static Item item(Record r, Place place, int position) {
        int attempts = r.get(ARTICLE.ATTEMPTS);
        return new Item(r.get(ARTICLE.ID), r.get(ARTICLE.TITLE), r.get(ARTICLE.DESK_ID), r.get(ARTICLE.PRIORITY), place, position,
                r.get(ARTICLE.AVAILABLE_AT), attempts, r.get(ARTICLE.REVISION), attempts > 0 && place != Place.WITH_WRITERS,
                r.get(ARTICLE.KEPT_FROM), r.get(ARTICLE.HELD_BY), r.get(ARTICLE.HELD_AT));
    }
}
