package org.copydesk.cluster;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * What the database says happened on one desk, checked against what the editors saw. On a cluster
 * the event log's ids come from each node's own auto-increment series, so its id order is not the
 * commit order (the single-server audit replays id order); these checks need no order: leases are
 * 30 minutes long, so in a run every article is claimed at most once and decided at most once.
 */
final class ClusterLedger {

    private ClusterLedger() {
    }

    /** Every broken rule, in words; empty when the desk is consistent. */
    static List<String> violations(DSLContext dsl, String desk, Set<String> requestIdsSeen) {
        List<String> violations = new ArrayList<>();
        var ours = ARTICLE.DESK_ID.eq(desk);
        var articleIds = DSL.select(ARTICLE.ID).from(ARTICLE).where(ours);
        var rowKeys = DSL.select(ARTICLE.ID.cast(String.class)).from(ARTICLE).where(ours);
        // no row held twice: one claim per article (a second would mean two editors held it)
        for (var r : dsl.select(LEASE_EVENT.ROW_KEY, DSL.count(), DSL.min(LEASE_EVENT.NEW_OWNER), DSL.max(LEASE_EVENT.NEW_OWNER)).from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq("article").and(LEASE_EVENT.ACTION.eq("claim"))
                        .and(LEASE_EVENT.ROW_KEY.in(rowKeys)))
                .groupBy(LEASE_EVENT.ROW_KEY).having(DSL.count().gt(1)).fetch()) {
            violations.add("article " + r.value1() + " was claimed " + r.value2() + " times, by " + r.value3() + " … " + r.value4());
        }
        // nothing decided twice
        for (var r : dsl.select(DECISION.ARTICLE_ID, DSL.count()).from(DECISION).where(DECISION.ARTICLE_ID.in(articleIds))
                .groupBy(DECISION.ARTICLE_ID).having(DSL.count().gt(1)).fetch()) {
            violations.add("article " + r.value1() + " was decided " + r.value2() + " times");
        }
        // every decision fenced: made by the editor the claim gave the article to, under that claim's token
        var claim = LEASE_EVENT.as("c");
        for (var r : dsl.select(DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.LEASE_TOKEN, claim.NEW_OWNER, claim.LEASE_TOKEN)
                .from(DECISION).leftJoin(claim).on(claim.RESOURCE.eq("article").and(claim.ACTION.eq("claim"))
                        .and(claim.ROW_KEY.eq(DECISION.ARTICLE_ID.cast(String.class))))
                .where(DECISION.ARTICLE_ID.in(articleIds))
                .and(claim.ID.isNull().or(claim.NEW_OWNER.ne(DECISION.EDITOR_ID)).or(claim.LEASE_TOKEN.ne(DECISION.LEASE_TOKEN)))
                .fetch()) {
            violations.add("article " + r.value1() + " was decided by " + r.value2() + " under token " + r.value3()
                    + " but its claim gave it to " + r.value4() + " under token " + r.value5());
        }
        // nothing lost, nothing extra: the decisions are exactly those the editors were told were recorded
        Set<String> stored = new HashSet<>(dsl.select(DECISION.REQUEST_ID).from(DECISION)
                .where(DECISION.ARTICLE_ID.in(articleIds)).fetch(DECISION.REQUEST_ID));
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
