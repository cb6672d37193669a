package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The event log searched the way a supervisor asks: by person, article (number or words of its
 * title), action and time, with each event's article title.
 *
 * <p>Heartbeat renewals are most of the log (a lease held all morning renews every minute), so by
 * default they come folded: all renewals of one lease by its holder are one line, with how many
 * there were and from when to when, in the place of the last one. The folding is done by the
 * server (one group per lease token), so the limit counts lines, not heartbeats.
 */
public final class AuditLog {

    /** The action every heartbeat writes. */
    public static final String RENEW = HistoryAction.RENEW.code();

    /** How many articles a search by title words looks in. */
    static final int TITLE_MATCHES = 1_000;

    /**
     * What to look for; null (or blank) means "any". Built from {@link #recent(int)} and the
     * {@code with…} methods.
     *
     * @param person     matches the actor, the previous holder or the new holder (an editor id)
     * @param articleId  one article
     * @param titleWords articles whose title contains these words, as typed
     * @param action     one action code ({@link #ACTIONS})
     * @param within     only events in this span before the server's now
     * @param todayIn    only events since the last midnight in this time zone (the supervisor's day)
     * @param eachRenewal every renewal on its own line instead of one line per lease
     * @param limit      at most this many lines, newest first
     */
    public record Query(String person, Long articleId, String titleWords, String action, Duration within, ZoneId todayIn,
                        boolean eachRenewal, int limit) {

        public static Query recent(int limit) {
            return new Query(null, null, null, null, null, null, false, limit);
        }

        public Query withPerson(String id) {
            return new Query(blankToNull(id), articleId, titleWords, action, within, todayIn, eachRenewal, limit);
        }

        public Query withArticle(Long id) {
            return new Query(person, id, titleWords, action, within, todayIn, eachRenewal, limit);
        }

        public Query withTitleWords(String words) {
            return new Query(person, articleId, blankToNull(words), action, within, todayIn, eachRenewal, limit);
        }

        public Query withAction(String code) {
            return new Query(person, articleId, titleWords, blankToNull(code), within, todayIn, eachRenewal, limit);
        }

        public Query within(Duration span) {
            return new Query(person, articleId, titleWords, action, span, null, eachRenewal, limit);
        }

        public Query today(ZoneId zone) {
            return new Query(person, articleId, titleWords, action, null, zone, eachRenewal, limit);
        }

        public Query withEachRenewal(boolean each) {
            return new Query(person, articleId, titleWords, action, within, todayIn, each, limit);
        }

        private static String blankToNull(String s) {
            return s == null || s.isBlank() ? null : s.strip();
        }
    }

    /**
     * One line of the log. {@code articleId} is null for events on other resources, {@code title}
     * null when the article is gone. {@code count} is 1 for an event; for renewals folded into one
     * line it is how many, {@code firstAt} the first of them and {@code at} the last.
     */
    public record Entry(long id, LocalDateTime at, Long articleId, String title, String action, String actor, String oldOwner,
                        String newOwner, String detail, int count, LocalDateTime firstAt) {

        /** Several renewals on one line. */
        public boolean folded() {
            return count > 1;
        }
    }

    /** The actions the log holds, as the database writes them. */
    public static final List<String> ACTIONS = Arrays.stream(HistoryAction.values()).map(HistoryAction::code).toList();

    private final DSLContext dsl;

    public AuditLog(DSLContext dsl) {
        this.dsl = dsl;
    }

    public List<Entry> search(Query q) {
        int limit = Math.max(1, Math.min(q.limit(), 10_000));
        // An editor's reload is one row of the editor's for every lease it refreshed (RefreshedLeases):
        // a line of its own, except when the search is for articles (their History lists those reloads).
        Condition where = q.articleId() != null || q.titleWords() != null ? LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE)
                : LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE).or(LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE)
                        .and(LEASE_EVENT.ACTION.eq(HistoryAction.REFRESH.code())));
        if (q.person() != null) {
            String p = q.person();
            where = where.and(LEASE_EVENT.ACTOR.eq(p).or(LEASE_EVENT.OLD_OWNER.eq(p)).or(LEASE_EVENT.NEW_OWNER.eq(p)));
        }
        if (q.articleId() != null) {
            where = where.and(LEASE_EVENT.ROW_KEY.eq(Long.toString(q.articleId())));
        }
        if (q.titleWords() != null) {
            // the pattern is made here and bound as one value: no SQL function meets the column's collation
            String pattern = "%" + q.titleWords().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
            List<String> keys = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.TITLE.like(pattern, '!'))
                    .orderBy(ARTICLE.ID.desc()).limit(DSL.inline(TITLE_MATCHES)).fetch(r -> Long.toString(r.value1()));
            if (keys.isEmpty()) {
                return List.of();
            }
            where = where.and(LEASE_EVENT.ROW_KEY.in(keys));
        }
        if (q.within() != null) {
            where = where.and(LEASE_EVENT.OCCURRED_AT.ge(ServerClock.plus(ServerClock.now(), q.within().negated())));
        } else if (q.todayIn() != null) {
            where = where.and(LEASE_EVENT.OCCURRED_AT.ge(DSL.val(startOfToday(q.todayIn()))));
        }
        List<Entry> lines = new ArrayList<>();
        boolean renewalsOnly = RENEW.equals(q.action());
        if (q.eachRenewal() || !(q.action() == null || renewalsOnly)) {
            lines.addAll(events(q.action() == null ? where : where.and(LEASE_EVENT.ACTION.eq(q.action())), limit));
        } else {
            if (!renewalsOnly) {
                lines.addAll(events(where.and(LEASE_EVENT.ACTION.ne(RENEW)), limit));
            }
            lines.addAll(foldedRenewals(where.and(LEASE_EVENT.ACTION.eq(RENEW)), limit));
            lines.sort(Comparator.comparingLong(Entry::id).reversed());
        }
        return withTitles(lines.size() > limit ? lines.subList(0, limit) : lines);
    }

    /** Midnight at the start of the server's current day in {@code zone}, in UTC as the log keeps it. */
    private LocalDateTime startOfToday(ZoneId zone) {
        LocalDateTime utcNow = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        return utcNow.atOffset(ZoneOffset.UTC).atZoneSameInstant(zone).toLocalDate().atStartOfDay(zone)
                .withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
    }

    private List<Entry> events(Condition where, int limit) {
        return dsl.selectFrom(LEASE_EVENT).where(where)
                .orderBy(LEASE_EVENT.ID.desc())
                .limit(DSL.inline(limit))
                .fetch(r -> RefreshedLeases.RESOURCE.equals(r.getResource())
                        ? new Entry(r.getId(), r.getOccurredAt(), null, null, r.getAction(), r.getActor(), r.getOldOwner(),
                                r.getNewOwner(), reloadWords(r.getDetail()), 1, r.getOccurredAt())
                        : new Entry(r.getId(), r.getOccurredAt(), articleId(r.getRowKey()), null, r.getAction(), r.getActor(),
                                r.getOldOwner(), r.getNewOwner(), r.getDetail(), 1, r.getOccurredAt()));
    }

    /** An editor's reload row in words: how many leases, and which articles. */
    private static String reloadWords(String detail) {
        List<RefreshedLeases.Refreshed> leases = RefreshedLeases.parse(detail);
        return Phrase.of("review.audit.reloadRefreshed", leases.size(),
                leases.stream().map(l -> "#" + l.articleId()).collect(Collectors.joining(", "))).text();
    }

    /** One line per lease (article, holder, token): how many renewals, the first and the last. */
    private List<Entry> foldedRenewals(Condition where, int limit) {
        Field<Long> last = DSL.max(LEASE_EVENT.ID).as("last_id");
        Field<LocalDateTime> first = DSL.min(LEASE_EVENT.OCCURRED_AT).as("first_at");
        Field<LocalDateTime> lastAt = DSL.max(LEASE_EVENT.OCCURRED_AT).as("last_at");
        Field<Integer> count = DSL.count().as("renewals");
        return dsl.select(last, first, lastAt, count, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTOR, LEASE_EVENT.LEASE_TOKEN)
                .from(LEASE_EVENT).where(where)
                .groupBy(LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTOR, LEASE_EVENT.LEASE_TOKEN)
                .orderBy(last.desc())
                .limit(DSL.inline(limit))
                .fetch(r -> new Entry(r.get(last), r.get(lastAt), articleId(r.get(LEASE_EVENT.ROW_KEY)), null, RENEW,
                        r.get(LEASE_EVENT.ACTOR), r.get(LEASE_EVENT.ACTOR), r.get(LEASE_EVENT.ACTOR), null, r.get(count), r.get(first)));
    }

    /** The lines with their articles' titles, read in one query. */
    private List<Entry> withTitles(List<Entry> lines) {
        Set<Long> ids = lines.stream().map(Entry::articleId).filter(Objects::nonNull).collect(Collectors.toSet());
        Map<Long, String> titles = ids.isEmpty() ? Map.of()
                : dsl.select(ARTICLE.ID, ARTICLE.TITLE).from(ARTICLE).where(ARTICLE.ID.in(ids)).fetchMap(ARTICLE.ID, ARTICLE.TITLE);
        return lines.stream().map(e -> new Entry(e.id(), e.at(), e.articleId(), e.articleId() == null ? null : titles.get(e.articleId()),
                e.action(), e.actor(), e.oldOwner(), e.newOwner(), e.detail(), e.count(), e.firstAt())).toList();
    }

    private static Long articleId(String rowKey) {
        return rowKey != null && !rowKey.isEmpty() && rowKey.chars().allMatch(Character::isDigit) ? Long.valueOf(rowKey) : null;
    }
}
