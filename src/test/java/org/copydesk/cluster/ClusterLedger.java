package org.copydesk.cluster;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * What the database says happened on one desk, checked against what the editors saw. On a cluster
 * the event log's ids come from each node's own auto-increment series, so its id order is not the
 * commit order (the single-server audit replays id order); these checks need no order: leases are
 * 30 minutes long, so in a run every article is claimed at most once and decided at most once.
 *
 * <p>The event log names an article by its id as text ({@code row_key}). The desk's claims are read
 * by those keys as bound values and matched with the decisions here, so no statement compares a
 * column with text the session made (a cast takes the session's collation, which need not be the
 * column's).
 */
final class ClusterLedger {

    /** One claim of an article, as the event log recorded it. */
    private record Claim(long article, String owner, Long token) {
    }

    /** One decision, as stored. */
    private record Decided(long article, String editor, long token, String requestId) {
    }

    private ClusterLedger() {
    }

    /** Every broken rule, in words; empty when the desk is consistent. */
    static List<String> violations(DSLContext dsl, String desk, Set<String> requestIdsSeen) {
        List<String> violations = new ArrayList<>();
        var ours = ARTICLE.DESK_ID.eq(desk);
        List<String> rowKeys = dsl.select(ARTICLE.ID).from(ARTICLE).where(ours).fetch(ARTICLE.ID).stream()
                .map(String::valueOf).toList();
        Map<Long, List<Claim>> claims = rowKeys.isEmpty() ? Map.of() : dsl
                .select(LEASE_EVENT.ROW_KEY, LEASE_EVENT.NEW_OWNER, LEASE_EVENT.LEASE_TOKEN).from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq("article").and(LEASE_EVENT.ACTION.eq("claim")).and(LEASE_EVENT.ROW_KEY.in(rowKeys)))
                .fetch(r -> new Claim(Long.parseLong(r.value1()), r.value2(), r.value3())).stream()
                .collect(Collectors.groupingBy(Claim::article));
        List<Decided> decisions = dsl.select(DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.LEASE_TOKEN, DECISION.REQUEST_ID)
                .from(DECISION).where(DECISION.ARTICLE_ID.in(DSL.select(ARTICLE.ID).from(ARTICLE).where(ours)))
                .fetch(r -> new Decided(r.value1(), r.value2(), r.value3(), r.value4()));
        // no row held twice: one claim per article (a second would mean two editors held it)
        claims.forEach((article, held) -> {
            if (held.size() > 1) {
                violations.add("article " + article + " was claimed " + held.size() + " times, by "
                        + held.stream().map(Claim::owner).sorted().collect(Collectors.joining(" … ")));
            }
        });
        // nothing decided twice
        decisions.stream().collect(Collectors.groupingBy(Decided::article, Collectors.counting())).forEach((article, times) -> {
            if (times > 1) {
                violations.add("article " + article + " was decided " + times + " times");
            }
        });
        // every decision fenced: made by the editor the claim gave the article to, under that claim's token
        for (Decided d : decisions) {
            List<Claim> held = claims.getOrDefault(d.article(), List.of());
            if (held.isEmpty()) {
                violations.add("article " + d.article() + " was decided by " + d.editor() + " under token " + d.token()
                        + " but was never claimed");
            }
            for (Claim c : held) {
                if (!d.editor().equals(c.owner()) || !Objects.equals(d.token(), c.token())) {
                    violations.add("article " + d.article() + " was decided by " + d.editor() + " under token " + d.token()
                            + " but its claim gave it to " + c.owner() + " under token " + c.token());
                }
            }
        }
        // nothing lost, nothing extra: the decisions are exactly those the editors were told were recorded
        Set<String> stored = decisions.stream().map(Decided::requestId).collect(Collectors.toSet());
        Set<String> missing = new HashSet<>(requestIdsSeen);
        missing.removeAll(stored);
        Set<String> unseen = new HashSet<>(stored);
        unseen.removeAll(requestIdsSeen);
        if (!missing.isEmpty()) {
            violations.add(missing.size() + " decisions editors were told were recorded are not in the database");
        }
        if (!unseen.isEmpty()) {
            violations.add(unseen.size() + " decisions are in the database that no editor was told about");
        }
        int approved = dsl.fetchCount(ARTICLE, ours.and(ARTICLE.STATUS.eq(ArticleStatus.approved)));
        if (approved != stored.size()) {
            violations.add(approved + " articles approved but " + stored.size() + " decisions stored");
        }
        return violations;
    }
}
