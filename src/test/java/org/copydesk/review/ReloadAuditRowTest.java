package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.testing.CallCost;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Get articles / Reload (F5) refreshes every lease the editor holds and writes one history row for
 * it: the editor's row (resource 'editor', the editor as its key, action 'refresh'), listing each
 * lease refreshed with its token and new end ({@link RefreshedLeases}). Before, it wrote one row per
 * article held: five an F5 per editor, most of a newsroom's audit. The article's history still says
 * when its lease was refreshed, read from the editor's rows, and rows written the old way still read.
 */
class ReloadAuditRowTest extends OperationsFixture {

    private static final Logger log = LoggerFactory.getLogger(ReloadAuditRowTest.class);

    ReloadAuditRowTest(TestDatabase db) {
        super(db);
    }

    private List<LeaseEventRecord> refreshRows() {
        return dsl.selectFrom(LEASE_EVENT).where(LEASE_EVENT.ACTION.eq(HistoryAction.REFRESH.code())).orderBy(LEASE_EVENT.ID).fetch();
    }

    @Test
    void oneReloadWritesOneRefreshRowListingEveryLeaseHeldWithItsTokenAndNewEnd() {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, -60);
        ReviewProcedures procedures = procedures();
        assertThat(procedures.claim("ann", null, null, 60).claimed()).isEqualTo(5);
        assertThat(refreshRows()).as("control: a first claim refreshes nothing").isEmpty();

        ReviewProcedures.Claimed reload = procedures.claim("ann", null, null, null);

        assertThat(reload.refreshed()).isEqualTo(5);
        List<LeaseEventRecord> rows = refreshRows();
        assertThat(rows).as("one row for the reload, not one per article").hasSize(1);
        LeaseEventRecord row = rows.get(0);
        assertThat(row.getResource()).isEqualTo(RefreshedLeases.RESOURCE);
        assertThat(row.getRowKey()).isEqualTo("ann");
        assertThat(row.getActor()).isEqualTo("ann");
        Map<Long, RefreshedLeases.Refreshed> listed = RefreshedLeases.parse(row.getDetail()).stream()
                .collect(Collectors.toMap(RefreshedLeases.Refreshed::articleId, r -> r));
        assertThat(listed.keySet()).containsExactlyInAnyOrderElementsOf(OperationsFixture.ids(reload));
        for (HeldArticle held : reload.held()) {
            RefreshedLeases.Refreshed r = listed.get(held.id());
            assertThat(r.token()).isEqualTo(held.lease().token());
            assertThat(r.expiresAt()).as("the new end, as the article row has it").isEqualTo(article(held.id()).getExpiresAt());
        }
        List<AuditLog.Entry> audit = new AuditLog(dsl).search(AuditLog.Query.recent(50).withAction("refresh"));
        assertThat(audit).as("the Audit tab: one line for the reload, in words").singleElement()
                .satisfies(e -> assertThat(e.articleId()).isNull())
                .satisfies(e -> assertThat(e.detail()).startsWith("5 leases refreshed by Get articles / Reload: #"));
    }

    @Test
    void anArticlesHistoryStillSaysWhenItsLeaseWasRefreshedFromTheEditorsRow() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Fixtures.articles(dsl, "news", 1, 3, -60);
        ReviewProcedures procedures = procedures();
        procedures.claim("ann", null, 1, 60);
        procedures.claim("bob", null, 1, 60); // bob's reloads never name ann's article
        procedures.claim("ann", null, 1, null);
        procedures.claim("bob", null, 1, null);

        List<HistoryEntry> history = new ArticleHistory(dsl).of(id);

        assertThat(history).extracting(HistoryEntry::action, HistoryEntry::actor).containsExactly(
                org.assertj.core.groups.Tuple.tuple("claim", "ann"), org.assertj.core.groups.Tuple.tuple("refresh", "ann"));
        assertThat(history.get(1).token()).isEqualTo(article(id).getLeaseToken());
        assertThat(history.get(1).detail()).as("no list of other articles in one article's history").isNull();
    }

    @Test
    void theReplayOfTheLogReadsBothShapesOfRefreshRows() {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        ReviewProcedures procedures = procedures();
        ReviewProcedures.Claimed first = procedures.claim("ann", null, 3, 60);
        long id = first.held().get(0).id();
        // a refresh row as an older version wrote it: the article's own
        dsl.insertInto(LEASE_EVENT, LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTION, LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER,
                        LEASE_EVENT.NEW_OWNER, LEASE_EVENT.OLD_TOKEN, LEASE_EVENT.LEASE_TOKEN, LEASE_EVENT.EXPIRES_AT)
                .values("article", Long.toString(id), "refresh", "ann", "ann", "ann", 1L, 1L, article(id).getExpiresAt()).execute();
        procedures.claim("ann", null, null, null);

        assertThat(LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE).violations()).isEmpty();
        assertThat(new ArticleHistory(dsl).of(id)).extracting(HistoryEntry::action).containsExactly("claim", "refresh", "refresh");

        // control: the replay sees the editor's rows (a refresh listing a lease under a token it never had is caught)
        dsl.update(LEASE_EVENT).set(LEASE_EVENT.DETAIL, LEASE_EVENT.DETAIL.replace("," + 1 + ",", "," + 7 + ","))
                .where(LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE)).execute();
        assertThat(LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE).violations()).isNotEmpty();
    }

    @Test
    void moreLeasesThanOneRowHoldsGoIntoOneRowPerTwentyFive() {
        dsl.update(org.copydesk.db.schema.Tables.EDITOR).set(org.copydesk.db.schema.Tables.EDITOR.CAPACITY, 60)
                .where(org.copydesk.db.schema.Tables.EDITOR.ID.eq("ann")).execute();
        Fixtures.articles(dsl, "news", 60, 3, -60);
        ReviewProcedures procedures = procedures();
        assertThat(procedures.claim("ann", null, null, 60).claimed()).isEqualTo(60);

        assertThat(procedures.claim("ann", null, null, null).refreshed()).isEqualTo(60);

        List<LeaseEventRecord> rows = refreshRows();
        assertThat(rows).hasSize(3);
        assertThat(rows).allSatisfy(r -> assertThat(r.getDetail().length()).isLessThanOrEqualTo(2000));
        List<Long> held = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("ann")).fetch(ARTICLE.ID);
        assertThat(rows.stream().flatMap(r -> RefreshedLeases.parse(r.getDetail()).stream()).map(RefreshedLeases.Refreshed::articleId))
                .containsExactlyInAnyOrderElementsOf(held);
        assertThat(LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE).violations()).isEmpty();
    }

    /** What a reload costs the server with 5 leases held (logged; the figures are in the report of the change). */
    @Test
    void whatAReloadOfFiveLeasesCosts() throws Exception {
        Fixtures.articles(dsl, "news", 5, 3, -60);
        Fixtures.articles(dsl, "news", 200, 4, -60); // a queue behind them, which a full editor does not read
        procedures().claim("ann", null, null, 60);
        long before = dsl.fetchCount(LEASE_EVENT);
        try (Connection c = DriverManager.getConnection(db.endpoint().url(db.name()), db.endpoint().user(), db.endpoint().password());
             Statement s = c.createStatement()) {
            CallCost reload = CallCost.of(s, null, "CALL claim_articles('ann', NULL, NULL, NULL, NULL)", 10);
            long written = (dsl.fetchCount(LEASE_EVENT) - before) / 10;
            log.info("reload of 5 leases held: {}; history rows written per reload: {}", reload, written);
            assertThat(written).isEqualTo(1);
        }
    }
}
