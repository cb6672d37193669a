package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.AuditLog;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit of a working day reads as what people did, not as heartbeats: renewals folded to one
 * line per lease, titles beside the numbers, filters by person, article words and time, and the
 * export writes what is shown. View model with a same-thread executor on the real database.
 */
@ExtendWith(DatabaseExtension.class)
class AuditViewModelTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private Editor sue;
    private DashboardViewModel model;
    private List<Long> ids;

    AuditViewModelTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void aMorningOfHeartbeats() {
        sue = NewsroomCast.on(services, dsl).desks("news").ann("news").bob("news").sue("news");
        ids = Fixtures.articles(dsl, "news", 4, 3, -60);
        dsl.update(org.copydesk.db.schema.Tables.ARTICLE).set(org.copydesk.db.schema.Tables.ARTICLE.TITLE, "Bus strike called off")
                .where(org.copydesk.db.schema.Tables.ARTICLE.ID.eq(ids.get(0))).execute();
        services.queue().claim("ann"); // Articles 0, 1, 2
        services.queue().claim("bob"); // Article 3
        List<HeldArticle> anns = services.queue().held("ann");
        for (int i = 0; i < 12; i++) {
            services.queue().renew("ann", anns);
            services.queue().renew("bob", services.queue().held("bob"));
        }
        services.supervision().forceRelease(ids.get(1), "sue", "Legal reads it first");
        services.queue().renew("ann", services.queue().held("ann")); // a new run: after the release, on the others
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), sue,
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
    }

    @AfterEach
    void close() {
        model.close();
    }

    @Test
    void renewalsComeFoldedOneLinePerLeaseWithTitlesAndPeoplesNames() {
        AuditViewModel audit = model.audit();
        long renewals = dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"));
        assertThat(renewals).isEqualTo(3 * 12 + 12 + 2); // Ann's three leases and Bob's 12 times, Ann's two left once more

        List<AuditLog.Entry> lines = audit.entries();
        assertThat(lines).filteredOn(e -> e.action().equals("renew")).extracting(AuditLog.Entry::count)
                .as("one line per lease, however many heartbeats").containsExactlyInAnyOrder(13, 12, 13, 12);
        assertThat(lines).filteredOn(e -> e.action().equals("renew")).hasSize(4);
        assertThat(lines).hasSize(4 + 4 + 1); // four claims, four folded runs, one force release
        AuditLog.Entry first = lines.stream().filter(e -> e.articleId().equals(ids.get(0)) && e.folded()).findFirst().orElseThrow();
        assertThat(audit.titleOf(first)).isEqualTo("Bus strike called off");
        assertThat(audit.actionOf(first)).isEqualTo("renewed 13 times");
        assertThat(audit.detailOf(first)).startsWith("from ").contains(" to ");
        assertThat(audit.personName(first.actor())).isEqualTo("Ann Kowalski");
        AuditLog.Entry release = lines.stream().filter(e -> e.action().equals("force_release")).findFirst().orElseThrow();
        assertThat(audit.holdersOf(release.oldOwner(), release.newOwner())).isEqualTo("Ann Kowalski \u2192 \u2014");
        assertThat(audit.summaryProperty().get()).isEqualTo("9 events (50 renewals folded)");
        // newest first, the folded line where its last renewal was
        assertThat(lines).extracting(AuditLog.Entry::id).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        audit.eachRenewalProperty().set(true);
        assertThat(audit.entries()).hasSize(50 + 4 + 1);
        assertThat(audit.entries()).noneMatch(AuditLog.Entry::folded);
    }

    @Test
    void filtersByPersonArticleWordsActionAndToday() {
        AuditViewModel audit = model.audit();
        assertThat(audit.people()).extracting(Editor::id).containsExactly("ann", "bob", "sue");

        audit.personProperty().set(audit.people().get(1)); // Bob
        assertThat(audit.entries()).extracting(AuditLog.Entry::action).containsExactly("renew", "claim");
        assertThat(audit.entries().get(0).count()).isEqualTo(12);

        audit.personProperty().set(null);
        audit.articleProperty().set("bus strike");
        audit.search();
        assertThat(audit.entries()).extracting(AuditLog.Entry::articleId).containsOnly(ids.get(0));
        assertThat(audit.entries()).extracting(AuditLog.Entry::action).containsExactly("renew", "claim");

        audit.articleProperty().set(Long.toString(ids.get(1)));
        audit.actionProperty().set("force_release");
        assertThat(audit.entries()).singleElement().satisfies(e -> assertThat(e.detail()).isEqualTo("Legal reads it first"));

        audit.articleProperty().set("");
        audit.actionProperty().set("renew"); // renewals alone, still folded
        assertThat(audit.entries()).hasSize(4).allMatch(AuditLog.Entry::folded);

        // yesterday's events are not today's, on the supervisor's own clock
        audit.actionProperty().set(null);
        dsl.update(LEASE_EVENT).set(LEASE_EVENT.OCCURRED_AT, ServerClock.nowPlus(Duration.ofHours(-30)))
                .where(LEASE_EVENT.ACTION.eq("claim")).execute();
        audit.rangeProperty().set(AuditViewModel.AuditRange.TODAY);
        assertThat(audit.entries()).extracting(AuditLog.Entry::action).doesNotContain("claim").contains("force_release", "renew");
        audit.rangeProperty().set(AuditViewModel.AuditRange.LAST_WEEK);
        assertThat(audit.entries()).extracting(AuditLog.Entry::action).contains("claim");
    }

    @Test
    void theExportWritesTheLinesAsShown(@TempDir Path folder) throws Exception {
        Path file = folder.resolve("audit.csv");
        model.export(DashboardTab.AUDIT, file);

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(1 + 9);
        assertThat(lines.get(0)).isEqualTo("\uFEFFevent,at_utc,first_at_utc,count,article,title,action,actor,old_owner,new_owner,detail");
        assertThat(lines).anyMatch(l -> l.contains(",13," + ids.get(0) + ",Bus strike called off,renew,ann,ann,ann,from "));
    }
}
