package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.stream.Collectors;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.Editor;
import org.copydesk.review.RefreshedLeases;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An editor's Get articles / Reload writes one history row of the editor's for every lease it
 * refreshed, not one per article: the holders tab, which re-reads only the articles that had
 * events, must still re-read that editor's leases and show their new ends at its next refresh
 * (2 s), not at the full reload a minute later.
 */
@ExtendWith(DatabaseExtension.class)
class ReloadShowsInHoldersTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private HoldersViewModel model;

    ReloadShowsInHoldersTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void annHoldsThreeLeasesEndingInAMinute() {
        Editor sue = NewsroomCast.on(services, dsl).desks("news").ann("news").dan("news").sue("news");
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann");
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(1)))
                .where(ARTICLE.LOCKED_BY.eq("ann")).execute();
        // no look behind the cursor (500 event ids by default): in a newsroom's log the claims of these
        // leases are far behind it, while in this small one every article's claim would be within it
        DashboardViewModel.Settings d = DashboardViewModel.Settings.defaults();
        DashboardViewModel.Settings settings = new DashboardViewModel.Settings(d.tick(), d.refreshInterval(), d.fullReloadInterval(),
                d.statsInterval(), d.idleAfter(), d.offlineAfter(), 0, d.noticeLifetime(), d.unansweredAfter());
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, settings, ZoneId.of("UTC"));
        model = dashboard.holders();
        dashboard.start();
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private Map<Long, LocalDateTime> shownEnds() {
        return model.rows().stream().collect(Collectors.toMap(HolderRow::id, r -> r.lease().expiresAt()));
    }

    private Map<Long, LocalDateTime> heldEnds() {
        return dsl.select(ARTICLE.ID, ARTICLE.EXPIRES_AT).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("ann"))
                .fetchMap(ARTICLE.ID, ARTICLE.EXPIRES_AT);
    }

    @Test
    void theNewEndsOfAReloadShowAtTheNextRefreshFromTheEditorsOneRow() {
        Map<Long, LocalDateTime> before = heldEnds();
        assertThat(shownEnds()).as("control: the table shows the leases ending in a minute").isEqualTo(before);

        services.queue().claim("ann"); // F5: refreshes the three leases to the desk's 30 minutes

        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE))).as("the reload's one row").isEqualTo(1);
        Map<Long, LocalDateTime> after = heldEnds();
        assertThat(after.keySet()).isEqualTo(before.keySet());
        after.forEach((id, end) -> assertThat(end).as("article %d refreshed", id).isAfter(before.get(id).plusMinutes(20)));

        ticker.advance(Duration.ofSeconds(2));

        assertThat(model.lastRefreshProperty().get().full()).as("the 2 s refresh, not the minute's full reload").isFalse();
        assertThat(shownEnds()).as("the new ends, within the same seconds").isEqualTo(after);
    }
}
