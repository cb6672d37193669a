package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.editor.EditorViewModel;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard's view model with a same-thread executor, a manual clock and the real database. */
@ExtendWith(DatabaseExtension.class)
class DashboardViewModelTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private Editor sue;
    private DashboardViewModel model;

    DashboardViewModelTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        sue = NewsroomCast.on(services, dsl).desks("news", "sport")
                .ann("news", "sport").bob("sport").dan("news").sue("news", "sport");
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
    }

    @AfterEach
    void close() {
        model.close();
    }

    private List<String> titles() {
        return model.holders().rows().stream().map(HolderRow::title).toList();
    }

    @Test
    void showsEveryActiveLeaseByEditorWithLiveCountdowns() {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, -30); // newer than the news articles, so Ann takes all three of those
        services.queue().claim("ann");
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 600).where(DESK.ID.eq("sport")).execute();
        services.queue().claim("bob");

        model.start();

        assertThat(model.holders().rows()).hasSize(5);
        // by editor until the supervisor chooses another order, though Bob's 10-minute leases run out first
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("ann", "ann", "ann", "bob", "bob");
        assertThat(model.holders().sortDescriptionProperty().get()).isEqualTo("By editor, A to Z");
        HolderRow first = model.holders().rows().get(3);
        assertThat(first.timeLeft(ticker.nanoTime())).isBetween(Duration.ofSeconds(595), Duration.ofSeconds(600));
        assertThat(model.holders().deskName(first.desk())).isEqualTo("Sport");
        assertThat(model.holders().summaryProperty().get()).startsWith("5 active leases");

        ticker.advance(Duration.ofSeconds(10));
        assertThat(first.timeLeft(model.holders().clockProperty().get())).isBetween(Duration.ofSeconds(585), Duration.ofSeconds(590));
    }

    @Test
    void refreshesOnlyTheArticlesTheEventLogNamesSinceTheLastRefresh() {
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann");
        model.start();
        assertThat(model.holders().rows()).hasSize(3);
        assertThat(model.holders().lastRefreshProperty().get().full()).isTrue();

        services.queue().claim("dan"); // one more article
        HeldArticle annsFirst = services.queue().held("ann").get(0);
        services.queue().release(annsFirst);
        ticker.advance(Duration.ofSeconds(2));

        HoldersViewModel.RefreshCost cost = model.holders().lastRefreshProperty().get();
        assertThat(cost.full()).isFalse();
        assertThat(model.holders().rows()).hasSize(3);
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsOnly("ann", "dan");
        assertThat(model.holders().rows()).extracting(HolderRow::id).doesNotContain(annsFirst.id());
        assertThat(cost.rowsChanged()).isEqualTo(2);
        assertThat(cost.rowsShown()).isEqualTo(3);

        HolderRow unchanged = model.holders().rows().get(0);
        ticker.advance(Duration.ofSeconds(2));
        // the last few events are looked at again (see Settings.eventOverlap), but unchanged rows stay as they are
        assertThat(model.holders().lastRefreshProperty().get().articlesAsked()).isPositive();
        assertThat(model.holders().lastRefreshProperty().get().rowsChanged()).isZero();
        assertThat(model.holders().rows().get(0)).isSameAs(unchanged);
    }

    @Test
    void aRenewalReplacesTheRowWithItsNewExpiry() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 300).execute();
        services.queue().claim("ann");
        model.start();
        HolderRow before = model.holders().rows().get(0);
        ticker.advance(Duration.ofSeconds(60));
        assertThat(model.holders().rows().get(0).timeLeft(ticker.nanoTime())).isLessThanOrEqualTo(Duration.ofSeconds(240));

        services.queue().renew("ann", services.queue().held("ann"));
        ticker.advance(Duration.ofSeconds(2));

        HolderRow after = model.holders().rows().get(0);
        assertThat(after).isNotSameAs(before);
        assertThat(after.renewals()).isEqualTo(1);
        assertThat(after.timeLeft(ticker.nanoTime())).isGreaterThan(Duration.ofSeconds(290));
    }

    @Test
    void aLeaseThatRunsOutLeavesTheTableOnTheTick() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 30).where(DESK.ID.eq("news")).execute();
        services.queue().claim("dan");
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 1800).where(DESK.ID.eq("news")).execute();
        services.queue().claim("ann");
        // The manual clock runs ahead of the server's: looking back over old events (the overlap)
        // would re-read Dan's lease, which the server rightly still calls valid. Without it only
        // the local countdown decides, as in the app, where both clocks move together.
        DashboardViewModel.Settings d = DashboardViewModel.Settings.defaults();
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, new DashboardViewModel.Settings(d.tick(),
                d.refreshInterval(), d.fullReloadInterval(), d.statsInterval(), d.idleAfter(), d.offlineAfter(), 0,
                d.noticeLifetime()), ZoneId.of("UTC"));
        model.start();
        assertThat(model.holders().rows()).hasSize(2);

        ticker.advance(Duration.ofSeconds(31));

        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("ann");
    }

    @Test
    void groupsByEditorOrDeskAndFiltersBySearchText() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, -30); // newer: Ann fills up on news, Bob gets both sport articles
        services.queue().claim("ann");
        services.queue().claim("bob");
        services.queue().claim("dan");
        model.start();
        assertThat(model.holders().rows()).hasSize(6);

        model.holders().groupingProperty().set(Grouping.EDITOR);
        assertThat(model.holders().groups()).extracting(HoldersTable.GroupSummary::toString)
                .containsExactly("Ann Kowalski (3)", "Bob Okafor (2)", "Dan Ito (1)");
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("ann", "ann", "ann", "bob", "bob", "dan");
        model.holders().groupFilterProperty().set(model.holders().groups().get(2));
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("dan");
        assertThat(model.holders().summaryProperty().get()).startsWith("1 of 6 active leases");

        model.holders().groupingProperty().set(Grouping.DESK);
        assertThat(model.holders().groups()).extracting(HoldersTable.GroupSummary::label).containsExactly("News", "Sport");
        assertThat(model.holders().rows()).hasSize(6);

        model.holders().groupingProperty().set(Grouping.NONE);
        model.holders().searchProperty().set("bob");
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("bob", "bob");
        model.holders().searchProperty().set("sport");
        assertThat(model.holders().rows()).extracting(HolderRow::desk).containsOnly("sport").hasSize(2);
        model.holders().searchProperty().set("");
        assertThat(model.holders().rows()).hasSize(6);
    }

    @Test
    void aSelectionTheSearchHidesNoLongerDrivesTheActionsAndTheEmptyTableSaysWhy() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("ann");
        model.start();
        model.holders().selectedProperty().set(model.holders().rows().get(0));
        model.leaseActions().reasonProperty().set("needed elsewhere");
        assertThat(model.leaseActions().canForceReleaseProperty().get()).isTrue();

        model.holders().searchProperty().set("xyz");

        assertThat(model.holders().rows()).isEmpty();
        assertThat(model.holders().selectedProperty().get()).as("a hidden row is not the selected lease").isNull();
        assertThat(model.leaseActions().canActProperty().get()).isFalse();
        assertThat(model.leaseActions().canForceReleaseProperty().get()).isFalse();
        assertThat(model.holders().emptyTextProperty().get()).startsWith("No lease matches \u201cxyz\u201d.")
                .doesNotContain("Nobody holds");

        ticker.advance(Duration.ofSeconds(2)); // a refresh keeps it so
        assertThat(model.holders().selectedProperty().get()).isNull();

        model.holders().searchProperty().set("");
        assertThat(model.holders().rows()).hasSize(2);
        model.holders().selectedProperty().set(model.holders().rows().get(1));
        model.holders().searchProperty().set(Long.toString(model.holders().rows().get(1).id()));
        assertThat(model.holders().selectedProperty().get()).as("a row the filter still shows stays selected").isNotNull();

        services.queue().held("ann").forEach(h -> services.queue().release(h));
        model.holders().searchProperty().set("");
        model.holders().reloadAll();
        assertThat(model.holders().rows()).isEmpty();
        assertThat(model.holders().emptyTextProperty().get()).isEqualTo("Nobody holds an article right now.");
    }

    @Test
    void sortsByAChosenColumnInsideItsGroupsAndKeepsThatOrderAcrossRefreshes() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, -30);
        services.queue().claim("ann");
        services.queue().claim("bob");
        services.queue().claim("dan");
        model.start();
        assertThat(model.holders().sortDescriptionProperty().get()).isEqualTo("By editor, A to Z");

        model.holders().sortBy(HolderSort.EDITOR, false);
        assertThat(model.holders().rows()).extracting(HolderRow::editorId).containsExactly("dan", "bob", "bob", "ann", "ann", "ann");
        assertThat(model.holders().sortDescriptionProperty().get()).isEqualTo("By editor, Z to A");

        model.holders().sortBy(HolderSort.NUMBER, false);
        List<Long> ids = model.holders().rows().stream().map(HolderRow::id).toList();
        assertThat(ids).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        // a refresh merges the changed row into the chosen order, not into time-left order
        HeldArticle lowest = services.queue().held("ann").stream().min(java.util.Comparator.comparingLong(HeldArticle::id)).orElseThrow();
        services.queue().renew("ann", List.of(lowest));
        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.holders().rows()).extracting(HolderRow::id).containsExactlyElementsOf(ids);
        assertThat(model.holders().rows().get(5).renewals()).isEqualTo(1);

        model.holders().groupingProperty().set(Grouping.DESK); // groups first, then the chosen key inside each
        assertThat(model.holders().rows()).extracting(HolderRow::desk).containsExactly("news", "news", "news", "news", "sport", "sport");
        assertThat(model.holders().rows().subList(0, 4)).extracting(HolderRow::id).isSortedAccordingTo(java.util.Comparator.reverseOrder());

        model.holders().sortBy(HolderSort.TIME_LEFT, true);
        assertThat(model.holders().sortDescriptionProperty().get()).isEqualTo("By time left, soonest to run out first");
    }

    @Test
    void desksSortAndGroupByTheirNamesNotTheirIds() {
        services.newsroom().addDesk("a-desk", "Zebra", Duration.ofMinutes(30));
        services.newsroom().addDesk("z-desk", "Apple", Duration.ofMinutes(30));
        services.newsroom().addEditor("eve", "Eve Adams", Role.EDITOR, 4, List.of("a-desk", "z-desk"));
        Fixtures.articles(dsl, "a-desk", 2, 3, -60);
        Fixtures.articles(dsl, "z-desk", 2, 3, -30);
        services.queue().claim("eve");
        model.start();

        model.holders().sortBy(HolderSort.DESK, true);
        assertThat(model.holders().rows()).extracting(HolderRow::desk).containsExactly("z-desk", "z-desk", "a-desk", "a-desk");
        model.holders().groupingProperty().set(Grouping.DESK);
        assertThat(model.holders().groups()).extracting(HoldersTable.GroupSummary::label).containsExactly("Apple", "Zebra");
        assertThat(model.holders().rows()).extracting(HolderRow::desk).containsExactly("z-desk", "z-desk", "a-desk", "a-desk");
    }

    @Test
    void forceReleaseNeedsAReasonAndTheHolderIsToldInPlainWords() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        ManualTicker annsClock = new ManualTicker();
        EditorViewModel ann = new EditorViewModel(services, TaskExecutor.sameThread(), annsClock,
                services.newsroom().requireEditor("ann"), List.of("news"), EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        ann.start();
        model.start();
        HolderRow row = model.holders().rows().stream().filter(r -> r.title().equals("Article 0")).findFirst().orElseThrow();
        model.holders().selectedProperty().set(row);
        assertThat(model.leaseActions().canForceReleaseProperty().get()).isFalse();

        model.leaseActions().forceReleaseSelected();
        assertThat(model.leaseActions().errorProperty().get()).isEqualTo("Give a reason: Ann Kowalski will see it.");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(row.id()))).isEqualTo("ann");

        model.leaseActions().reasonProperty().set("Legal must read it first");
        assertThat(model.leaseActions().canForceReleaseProperty().get()).isTrue();
        model.leaseActions().forceReleaseSelected();
        assertThat(model.leaseActions().questionProperty().get()).as("asks first, naming title and holder")
                .isEqualTo("Take \u201cArticle 0\u201d back from Ann Kowalski?");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(row.id()))).isEqualTo("ann");
        model.leaseActions().confirm();

        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(row.id()))).isNull();
        assertThat(model.holders().rows()).extracting(HolderRow::title).containsExactly("Article 1");
        assertThat(model.notices().get(0).text()).isEqualTo("Took \u201cArticle 0\u201d back from Ann Kowalski.");
        assertThat(model.leaseActions().reasonProperty().get()).isEmpty();
        assertThat(dsl.select(LEASE_EVENT.ACTOR).from(LEASE_EVENT).where(LEASE_EVENT.ACTION.eq("force_release"))
                .fetch(LEASE_EVENT.ACTOR)).containsExactly("sue");

        ann.activity();
        annsClock.advance(Duration.ofSeconds(4)); // Ann's list watch finds out (news: it fades after its lifetime)
        assertThat(ann.articles()).extracting(r -> r.article().title()).containsExactly("Article 1");
        assertThat(ann.notices()).extracting(Notice::text).contains("Sue Lindqvist took \u201cArticle 0\u201d back: "
                + "\u201cLegal must read it first\u201d. Your notes go with it to whoever reviews it next.");
        ann.close();
    }

    @Test
    void reassignOffersTheDesksEditorsFirstAndWarnsBeforeGoingOverCapacity() {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        services.queue().claim("dan"); // Dan's capacity is 1: he is full
        services.queue().claim("ann");
        model.start();
        HolderRow annsRow = model.holders().rows().stream().filter(r -> r.editorId().equals("ann")).findFirst().orElseThrow();
        model.holders().selectedProperty().set(annsRow);
        // Ann holds it already; Bob works on sport only, so he comes last, marked
        assertThat(model.leaseActions().reassignCandidates()).extracting(Editor::id).containsExactly("dan", "sue", "bob");

        model.leaseActions().reassignToProperty().set(model.leaseActions().reassignCandidates().get(0));
        model.leaseActions().reasonProperty().set("Dan knows the case");
        model.leaseActions().reassignSelected();
        assertThat(model.leaseActions().questionProperty().get())
                .isEqualTo("Give \u201c" + annsRow.title() + "\u201d to Dan Ito? Ann Kowalski holds it now and loses it; "
                        + "Ann Kowalski's notes go with it.");
        model.leaseActions().confirm();

        assertThat(model.leaseActions().capacityWarningProperty().get()).isEqualTo(
                "Dan Ito already holds 1 of 1 articles. Reassign anyway to go over capacity.");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(annsRow.id()))).isEqualTo("ann");

        model.leaseActions().confirmOverCapacity();

        assertThat(model.leaseActions().capacityWarningProperty().get()).isEmpty();
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(annsRow.id()))).isEqualTo("dan");
        assertThat(model.holders().rows()).filteredOn(r -> r.id() == annsRow.id()).extracting(HolderRow::editorId).containsExactly("dan");
        assertThat(model.notices().get(0).text()).isEqualTo("Gave \u201c" + annsRow.title() + "\u201d to Dan Ito.");
        assertThat(dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER, LEASE_EVENT.NEW_OWNER, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("reassign")).fetchOne().intoList())
                .containsExactly("sue", "ann", "dan", "Dan knows the case");
    }

    @Test
    void cancellingTheCapacityWarningChangesNothing() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("dan");
        services.queue().claim("ann");
        model.start();
        model.holders().selectedProperty().set(model.holders().rows().stream().filter(r -> r.editorId().equals("ann")).findFirst().orElseThrow());
        model.leaseActions().reassignToProperty().set(model.leaseActions().reassignCandidates().get(0));
        model.leaseActions().reassignSelected();
        model.leaseActions().confirm();
        assertThat(model.leaseActions().capacityWarningProperty().get()).isNotEmpty();

        model.leaseActions().cancelOverCapacity();

        assertThat(model.leaseActions().capacityWarningProperty().get()).isEmpty();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("reassign"))).isZero();
    }

    @Test
    void extendGivesMoreTimeWithinTheDesksMaximumHold() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 600).set(DESK.MAX_LEASE_SECONDS, 1200).execute();
        services.queue().claim("ann");
        model.start();
        model.holders().selectedProperty().set(model.holders().rows().get(0));

        model.leaseActions().extendSelected(Duration.ofMinutes(5));
        assertThat(model.holders().rows().get(0).timeLeft(ticker.nanoTime())).isBetween(Duration.ofSeconds(890), Duration.ofSeconds(900));
        model.leaseActions().extendSelected(Duration.ofHours(1));

        assertThat(model.holders().rows().get(0).timeLeft(ticker.nanoTime())).isBetween(Duration.ofSeconds(1190), Duration.ofSeconds(1200));
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("extend").and(LEASE_EVENT.ACTOR.eq("sue")))).isEqualTo(2);
    }

    @Test
    void queueHealthChartsAndEditors() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        Fixtures.articles(dsl, "sport", 1, 3, 3600); // scheduled for later
        services.queue().claim("dan");
        HeldArticle dans = services.queue().held("dan").get(0);
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), dans.id(), dans.lease(), Verdict.APPROVE, ""));
        services.queue().claim("dan");
        // one of Dan's leases ran out and the release service noticed
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofSeconds(-5))).where(ARTICLE.LOCKED_BY.eq("dan")).execute();
        services.releaseService(released -> { }).runOnce();
        services.queue().claim("ann");
        services.queue().recordPresence("ann");

        model.start();

        HealthViewModel.DeskRow news = model.health().deskRows().stream().filter(d -> d.desk().equals("news")).findFirst().orElseThrow();
        assertThat(List.of(news.waitingNow(), news.inReview(), news.finishedToday())).containsExactly(0, 3, 1);
        HealthViewModel.DeskRow sport = model.health().deskRows().stream().filter(d -> d.desk().equals("sport")).findFirst().orElseThrow();
        assertThat(sport.scheduled()).isEqualTo(1);
        assertThat(sport.oldestWaiting()).isEqualTo("\u2014");

        HealthViewModel.HourlyChart finished = model.health().finishedChartProperty().get();
        assertThat(finished.hours()).hasSize(24);
        assertThat(finished.series()).containsKeys("News", "Sport");
        // (which of the 24 bars depends on the hour the test runs in)
        assertThat(finished.series().get("News").stream().mapToInt(Integer::intValue).sum()).isEqualTo(1);
        assertThat(finished.series().get("Sport").stream().mapToInt(Integer::intValue).sum()).isZero();
        HealthViewModel.HourlyChart expired = model.health().expiredChartProperty().get();
        assertThat(expired.series()).containsKeys("News", "Sport"); // per desk, like the finished reviews
        assertThat(expired.series().get("News").stream().mapToInt(Integer::intValue).sum()).isEqualTo(1);
        assertThat(expired.series().get("Sport").stream().mapToInt(Integer::intValue).sum()).isZero();

        assertThat(model.health().editorRows()).extracting(HealthViewModel.EditorRow::id).containsExactly("ann", "bob", "dan", "sue");
        HealthViewModel.EditorRow ann = model.health().editorRows().get(0);
        assertThat(ann.presence()).isEqualTo(Presence.ACTIVE);
        assertThat(ann.load()).isEqualTo("3 / 3");
        HealthViewModel.EditorRow dan = model.health().editorRows().get(2);
        assertThat(dan.finishedToday()).isEqualTo(1);
        assertThat(dan.held()).isZero();
        assertThat(model.health().editorRows().get(1).presence()).isEqualTo(Presence.OFFLINE);
        assertThat(model.health().editorRows().get(1).lastSeen()).isEqualTo("never");
    }

    @Test
    void auditFiltersByEditorArticleActionAndTimeAndShowsAnArticlesHistory() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("ann");
        List<HeldArticle> held = services.queue().held("ann");
        services.supervision().forceRelease(held.get(0).id(), "sue", "Wrong desk");
        services.queue().claim("dan");
        model.start();
        assertThat(model.audit().entries()).extracting(e -> e.action()).contains("claim", "force_release");

        model.audit().personProperty().set(services.newsroom().requireEditor("dan"));
        assertThat(model.audit().entries()).allSatisfy(e -> assertThat(List.of(String.valueOf(e.actor()), String.valueOf(e.newOwner()),
                String.valueOf(e.oldOwner()))).contains("dan"));
        assertThat(model.audit().entries()).isNotEmpty();

        model.audit().personProperty().set(null);
        model.audit().actionProperty().set("force_release");
        assertThat(model.audit().entries()).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("sue");
            assertThat(e.oldOwner()).isEqualTo("ann");
            assertThat(e.detail()).isEqualTo("Wrong desk");
        });
        assertThat(model.audit().summaryProperty().get()).as("not \"1 events\"").isEqualTo("1 event");
        model.audit().showHistory(model.audit().entries().get(0));
        assertThat(model.audit().history()).extracting(h -> h.action()).containsExactly("claim", "force_release", "claim");
        assertThat(model.audit().historyTitleProperty().get()).startsWith("Article " + held.get(0).id() + ": \u201cArticle 0\u201d (News, queued)")
                .endsWith(" \u2014 3 events");

        model.audit().articleProperty().set(Long.toString(held.get(1).id()));
        model.audit().actionProperty().set(null);
        model.audit().search();
        assertThat(model.audit().entries()).extracting(e -> e.articleId()).containsOnly(held.get(1).id());

        // older than the range: out of sight
        dsl.update(LEASE_EVENT).set(LEASE_EVENT.OCCURRED_AT, ServerClock.nowPlus(Duration.ofHours(-2))).execute();
        model.audit().articleProperty().set("");
        model.audit().rangeProperty().set(AuditViewModel.AuditRange.LAST_HOUR);
        assertThat(model.audit().entries()).isEmpty();
        model.audit().rangeProperty().set(AuditViewModel.AuditRange.LAST_DAY);
        assertThat(model.audit().entries()).isNotEmpty();

        model.audit().articleProperty().set("twelve"); // not a number: words of a title, which none has
        model.audit().search();
        assertThat(model.audit().errorProperty().get()).isEmpty();
        assertThat(model.audit().entries()).isEmpty();
    }

    @Test
    void aQuarantinedArticleIsCorrectedAndRequeued() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        services.queue().claim("ann");
        HeldArticle a = services.queue().held("ann").get(0);
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), Verdict.UNREVIEWABLE, "Garbled title"));
        model.start();
        assertThat(model.quarantine().quarantined()).singleElement().satisfies(q -> assertThat(q.reason()).isEqualTo("Garbled title"));

        model.quarantine().selectedArticleProperty().set(model.quarantine().quarantined().get(0));
        assertThat(model.quarantine().correctedTitleProperty().get()).isEqualTo("Article 0");
        model.quarantine().correctedTitleProperty().set("Council approves cycle lanes");
        model.quarantine().requeueNoteProperty().set("title fixed");
        model.quarantine().requeueSelectedArticle();

        assertThat(model.quarantine().quarantined()).isEmpty();
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(a.id()))).isEqualTo(ArticleStatus.queued);
        assertThat(dsl.fetchValue(ARTICLE.TITLE, ARTICLE.ID.eq(a.id()))).isEqualTo("Council approves cycle lanes");
        assertThat(services.history().of(a.id())).last().satisfies(h -> {
            assertThat(h.action()).isEqualTo("requeue");
            assertThat(h.actor()).isEqualTo("sue");
            assertThat(h.detail()).isEqualTo("title fixed");
        });
        assertThat(model.notices().get(0).text()).isEqualTo("\u201cCouncil approves cycle lanes\u201d is back in the queue.");
    }

    @Test
    void aRowRefusedByAnImportIsCorrectedAndBecomesAnArticle() {
        dsl.insertInto(IMPORT_QUARANTINE, IMPORT_QUARANTINE.IMPORT_ID, IMPORT_QUARANTINE.SOURCE_NAME,
                        IMPORT_QUARANTINE.LINE_NUMBER, IMPORT_QUARANTINE.RAW_TEXT, IMPORT_QUARANTINE.REASON)
                .values("imp-1", "wire.jsonl", 7L, "{\"desk\": \"nwes\", \"title\": \"Port strike ends\", \"body\": \"Dockers return.\"}",
                        "unknown desk 'nwes'")
                .execute();
        long rejectId = dsl.select(DSL.max(IMPORT_QUARANTINE.ID)).from(IMPORT_QUARANTINE).fetchOne(0, Long.class);
        model.start();
        assertThat(model.quarantine().importRejects()).singleElement().satisfies(r -> assertThat(r.lineNumber()).isEqualTo(7));

        model.quarantine().selectedRejectProperty().set(model.quarantine().importRejects().get(0));
        RowCorrectionForm form = model.quarantine().rowForm();
        assertThat(form.titleProperty().get()).isEqualTo("Port strike ends");
        assertThat(form.bodyProperty().get()).isEqualTo("Dockers return.");
        assertThat(form.deskProperty().get()).as("the row named no desk that exists").isNull();
        assertThat(form.deskAsImportedProperty().get()).isEqualTo("The row said \u201cnwes\u201d, which is no desk.");
        model.quarantine().requeueSelectedReject();
        assertThat(model.notices()).as("an error stays next to what failed").isEmpty();
        assertThat(model.quarantine().rowErrorProperty().get()).isEqualTo("The corrected row needs a desk.");
        assertThat(model.quarantine().importRejects()).hasSize(1);
        assertThat(form.titleProperty().get()).as("what was there stays").isEqualTo("Port strike ends");

        form.deskProperty().set(model.quarantine().desks().stream().filter(d -> d.id().equals("news")).findFirst().orElseThrow());
        form.priorityProperty().set("2");
        model.quarantine().requeueSelectedReject();

        assertThat(model.quarantine().importRejects()).isEmpty();
        var article = dsl.selectFrom(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq("import-imp-1-7")).fetchOne();
        assertThat(article.getTitle()).isEqualTo("Port strike ends");
        assertThat(article.getPriority()).isEqualTo(2);
        assertThat(article.getStatus()).isEqualTo(ArticleStatus.queued);
        assertThat(dsl.fetchValue(IMPORT_QUARANTINE.RESOLVED_AT, IMPORT_QUARANTINE.ID.eq(rejectId))).isNotNull();
        assertThat(services.history().of(article.getId())).singleElement().satisfies(h -> {
            assertThat(h.action()).isEqualTo("import");
            assertThat(h.actor()).isEqualTo("sue");
        });
    }

    @Test
    void aRefusedCsvRowIsOfferedAsAFormOfItsFieldsAndReimportingNeitherDuplicatesItNorDisagreesWithTheCommandLine() {
        model.start();
        Path file = Path.of("docs/examples/articles-with-errors.csv").toAbsolutePath();
        java.io.StringWriter out = new java.io.StringWriter();
        java.util.Map<String, String> environment = new java.util.HashMap<>(System.getenv());
        environment.put(org.copydesk.db.DatabaseConfigResolver.PASSWORD_ENV, db.endpoint().password());
        org.copydesk.cli.Cli.run(new String[] {"import", file.toString(), "--db-url", db.url(), "--db-user", db.endpoint().user()},
                new java.io.PrintWriter(out), new java.io.PrintWriter(new java.io.StringWriter()), environment);
        assertThat(out.toString()).contains("2 imported, 0 already present, 5 kept aside");

        // the same file from the dashboard, on the same database: the same counts as the command line's second run
        model.imports().importFile(file);
        assertThat(model.imports().statusProperty().get())
                .isEqualTo("articles-with-errors.csv: 0 imported, 2 already present, 5 kept aside; see Quarantine, rows refused by imports.");
        assertThat(model.quarantine().importRejects()).as("the refused rows are not kept aside twice").hasSize(5);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isEqualTo(5);

        // line 4 of the file has no body; the form shows its fields, not the CSV line
        var noBody = model.quarantine().importRejects().stream().filter(r -> r.lineNumber() == 4).findFirst().orElseThrow();
        model.quarantine().selectedRejectProperty().set(noBody);
        RowCorrectionForm form = model.quarantine().rowForm();
        assertThat(List.of(form.externalIdProperty().get(), form.deskProperty().get().id(), form.titleProperty().get(),
                form.bodyProperty().get(), form.priorityProperty().get())).containsExactly("wire-0003", "sport", "Cup draw made", "", "3");

        model.quarantine().requeueSelectedReject(); // still no body: said in plain words
        assertThat(model.quarantine().rowErrorProperty().get()).isEqualTo("The corrected row needs a body.");
        form.bodyProperty().set("Holders meet the champions.");
        form.availableAtProperty().set("next Tuesday");
        model.quarantine().requeueSelectedReject();
        assertThat(model.quarantine().rowErrorProperty().get()).startsWith("available_at must be an ISO-8601 date-time");

        form.availableAtProperty().set("2030-01-01T10:00:00+02:00"); // an embargo given in the form is kept, in UTC
        model.quarantine().requeueSelectedReject();
        assertThat(model.notices().get(0).kind()).isEqualTo(Notice.Kind.SUCCESS);
        assertThat(model.quarantine().rowErrorProperty().get()).isEmpty();
        assertThat(dsl.fetchValue(ARTICLE.TITLE, ARTICLE.EXTERNAL_ID.eq("wire-0003"))).isEqualTo("Cup draw made");
        assertThat(dsl.fetchValue(ARTICLE.PRIORITY, ARTICLE.EXTERNAL_ID.eq("wire-0003"))).isEqualTo(3);
        assertThat(dsl.fetchValue(ARTICLE.AVAILABLE_AT, ARTICLE.EXTERNAL_ID.eq("wire-0003")))
                .isEqualTo(java.time.LocalDateTime.of(2030, 1, 1, 8, 0));

        // once more: the corrected row stays dealt with, the other four are not added again
        model.imports().importFile(file);
        assertThat(model.quarantine().importRejects()).hasSize(4);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isEqualTo(5);
    }

    @Test
    void exportWritesTheShownTableAsCsv(@TempDir Path folder) throws Exception {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("ann");
        dsl.update(ARTICLE).set(ARTICLE.TITLE, DSL.val("Quote, \"unquote\"")).where(ARTICLE.TITLE.eq("Article 0")).execute();
        model.start();
        Path file = folder.resolve("leases.csv");

        model.export(DashboardTab.HOLDERS, file);

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("\uFEFFarticle,title,desk,editor,editor_id,claimed_at_utc,renewals,time_left_seconds,holder");
        assertThat(lines.get(1)).contains(",\"Quote, \"\"unquote\"\"\",News,Ann Kowalski,ann,");
        assertThat(model.notices().get(0).text()).isEqualTo("Exported 2 rows to leases.csv.");

        for (DashboardTab tab : DashboardTab.values()) {
            TableSnapshot s = model.snapshot(tab);
            assertThat(s.rows()).allSatisfy(r -> assertThat(r).hasSameSizeAs(s.headers()));
        }
    }

    @Test
    void aSupervisorImportsAFileWithProgressAndTheBadRowsLandInQuarantine() {
        model.start();

        model.imports().importFile(java.nio.file.Path.of("docs/examples/articles-with-errors.csv"));

        assertThat(model.imports().importingProperty().get()).isFalse();
        assertThat(model.imports().progressProperty().get()).isEqualTo(1.0);
        // the two good rows go in, the five bad ones are kept aside with their line numbers
        assertThat(model.imports().statusProperty().get())
                .isEqualTo("articles-with-errors.csv: 2 imported, 0 already present, 5 kept aside; see Quarantine, rows refused by imports.");
        assertThat(model.quarantine().importRejects()).hasSize(5);
        assertThat(model.notices()).extracting(org.copydesk.ui.common.Notice::kind).contains(org.copydesk.ui.common.Notice.Kind.WARNING);
    }

    @Test
    void aDatabaseThatStopsAnsweringShowsTheBannerAfterFiveSecondsAndClearsWhenTheAnswersCome() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("ann");
        HeldBackTasks frozen = new HeldBackTasks(); // the work is done, its answer does not come back: a frozen server
        model.close();
        model = new DashboardViewModel(services, frozen, ticker, sue, DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
        frozen.deliver();
        assertThat(model.holders().rows()).hasSize(2);
        Duration limit = DashboardViewModel.Settings.defaults().unansweredAfter();

        ticker.advance(Duration.ofSeconds(2)); // the refreshes are handed over; no answer comes
        ticker.advance(limit.minusSeconds(1));
        assertThat(model.offlineProperty().get()).as("a wait shorter than %s is no alarm", limit).isFalse();
        assertThat(model.bannerProperty().get()).isEmpty();

        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.offlineProperty().get()).as("longer than %s: not answering", limit).isTrue();
        assertThat(model.bannerProperty().get())
                .isEqualTo("The database is not answering. What you see may be out of date; Copydesk keeps asking.");
        // nothing else stops: the countdowns tick and the rows stay as last seen
        assertThat(model.holders().clockProperty().get()).isEqualTo(ticker.nanoTime());
        assertThat(model.holders().rows()).hasSize(2);

        ticker.advance(Duration.ofSeconds(20));
        assertThat(model.offlineProperty().get()).as("still frozen").isTrue();

        frozen.deliver(); // the server answers again
        ticker.advance(Duration.ofSeconds(1));
        frozen.deliver();

        assertThat(model.offlineProperty().get()).isFalse();
        assertThat(model.bannerProperty().get()).isEmpty();
        assertThat(model.notices()).extracting(Notice::text).containsOnlyOnce("Back online.");
        assertThat(model.holders().rows()).hasSize(2);
    }

    @Test
    void aLongBatchOfForceReleasesOnAnAnsweringDatabaseIsNoAlarm() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        services.queue().claim("ann");
        HeldBackTasks batches = new HeldBackTasks(); // one call per lease: the batch takes its time, the refreshes answer
        TaskExecutor slowBatches = new TaskExecutor() {
            @Override
            public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
                (what.equals("force release") ? batches : TaskExecutor.sameThread()).run(what, work, onSuccess, onFailure);
            }

            @Override
            public void onUiThread(Runnable update) {
                update.run();
            }
        };
        model.close();
        model = new DashboardViewModel(services, slowBatches, ticker, sue, DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.start();
        model.holders().select(model.holders().rows());
        model.leaseActions().reasonProperty().set("Legal must read them first");
        model.leaseActions().forceReleaseSelected();
        model.leaseActions().confirm();

        ticker.advance(DashboardViewModel.Settings.defaults().unansweredAfter().plusSeconds(5));
        assertThat(model.offlineProperty().get()).as("the batch is still running, the database answers").isFalse();

        batches.deliver();
        assertThat(model.notices().get(0).text()).startsWith("Took 2 of 2");
        assertThat(model.offlineProperty().get()).isFalse();
    }
}
