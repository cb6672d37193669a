package org.copydesk.ui.supervisor;

import static org.copydesk.testing.Await.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxThreadWatchdog;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Theme;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard with 10,000 active leases held by 100 editors, in a real (headless) window, while
 * 500 leases are renewed every 2 seconds: what a refresh costs on the database and on the FX
 * thread, and how long the FX thread is ever unavailable (the FX-thread watchdog, which includes
 * layout and rendering). The figures are reported (log and {@code target/dashboard-benchmark.md})
 * and copied into docs/benchmarks.md; only correctness is asserted, never a time.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardRefreshBenchmarkTest {

    private static final Logger log = LoggerFactory.getLogger(DashboardRefreshBenchmarkTest.class);
    private static final int LEASES = 10_000;
    private static final int EDITORS = 100;
    private static final int CHURN = 500;
    /**
     * Renewal cycles of 2 s each: four in {@code mvn verify}, where only correctness is asserted;
     * ten for the figures in docs/benchmarks.md ({@code -Dcopydesk.dashboard.cycles=10}).
     */
    private static final int CYCLES = Integer.getInteger("copydesk.dashboard.cycles", 4);

    private final DSLContext dsl;
    private final ReviewSession services;

    DashboardRefreshBenchmarkTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @Test
    void tenThousandLeasesRefreshIncrementally() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        var editors = dsl.insertInto(EDITOR, EDITOR.ID, EDITOR.DISPLAY_NAME, EDITOR.CAPACITY, EDITOR.LAST_SEEN_AT);
        for (int i = 0; i < EDITORS; i++) {
            editors = editors.values(DSL.val(String.format("ed%02d", i)), DSL.val("Editor " + i), DSL.val(100), ServerClock.now());
        }
        editors.execute();
        List<Long> ids = Fixtures.articles(dsl, "news", LEASES, 3, -3600);
        // 10,000 leases as claims leave them: holder, token, claim time, expiry 10 to 30 minutes out
        dsl.update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, DSL.concat(DSL.inline("ed"), DSL.lpad(ARTICLE.ID.mod(EDITORS).cast(String.class), 2, "0")))
                .set(ARTICLE.LEASE_TOKEN, ARTICLE.ID)
                .set(ARTICLE.CLAIMED_AT, ServerClock.now())
                .set(ARTICLE.EXPIRES_AT, ServerClock.plusSeconds(ServerClock.now(), DSL.inline(600).plus(ARTICLE.ID.mod(1200).cast(Integer.class))))
                .execute();
        assertThat(services.supervision().activeLeases()).hasSize(LEASES);

        List<HoldersViewModel.RefreshCost> costs = Collections.synchronizedList(new ArrayList<>());
        FxTaskExecutor tasks = new FxTaskExecutor(2);
        DashboardViewModel[] model = new DashboardViewModel[1];
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(stage -> {
            model[0] = new DashboardViewModel(services, tasks, new FxTicker(), sue, DashboardViewModel.Settings.defaults(),
                    ZoneId.of("UTC"));
            model[0].holders().lastRefreshProperty().addListener((o, a, c) -> costs.add(c));
            Scene scene = new Scene(new DashboardView(model[0]), 1280, 800);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        FxThreadWatchdog watchdog = new FxThreadWatchdog(50);
        try {
            long started = System.nanoTime();
            FxToolkit.setupFixture(() -> model[0].start());
            waitFor(60, () -> fx(() -> model[0].holders().allRows().size()) == LEASES);
            long firstLoadMillis = (System.nanoTime() - started) / 1_000_000;
            HoldersViewModel.RefreshCost first = costs.get(0);
            long firstLoadStall = watchdog.maxStallMillis();
            WaitForAsyncUtils.sleep(1, TimeUnit.SECONDS);
            watchdog.reset();
            costs.clear();

            Random random = new Random(7);
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                renew(pick(ids, random));
                WaitForAsyncUtils.sleep(2, TimeUnit.SECONDS);
            }
            WaitForAsyncUtils.sleep(2500, TimeUnit.MILLISECONDS); // the last cycle's refresh
            List<HoldersViewModel.RefreshCost> incremental = List.copyOf(costs).stream().filter(c -> !c.full()).toList();
            long maxStall = watchdog.maxStallMillis();
            long stalls = watchdog.stallsOverThreshold();

            // what a search over all 10,000 rows costs on the FX thread
            long filterNanos = fx(() -> {
                long t = System.nanoTime();
                model[0].holders().searchProperty().set("Editor 42");
                long spent = System.nanoTime() - t;
                model[0].holders().searchProperty().set("");
                return spent;
            });
            long groupNanos = fx(() -> {
                long t = System.nanoTime();
                model[0].holders().groupingProperty().set(Grouping.EDITOR);
                return System.nanoTime() - t;
            });
            // and a full reload with 500 rows changed (the once-a-minute safety net)
            renew(pick(ids, random));
            costs.clear();
            FxToolkit.setupFixture(() -> model[0].holders().reloadAll());
            waitFor(30, () -> costs.stream().anyMatch(HoldersViewModel.RefreshCost::full));
            HoldersViewModel.RefreshCost full = costs.stream().filter(HoldersViewModel.RefreshCost::full).findFirst().orElseThrow();

            assertThat(incremental).as("incremental refreshes").isNotEmpty();
            assertThat(fx(() -> model[0].holders().allRows().size())).isEqualTo(LEASES);
            assertThat(watchdog.ioOnFxThread()).as("I/O on the FX thread").isEmpty();

            String report = String.format(String.join("\n",
                    "Dashboard refresh with %,d active leases (%d editors), %d leases renewed every 2 s, window 1280x800 (headless, software rendering)",
                    "first load: %d ms until all rows shown; database %d ms, FX-thread update %.1f ms; longest FX stall during it %d ms",
                    "incremental refreshes: %d; articles asked per refresh median %d; database median %.1f ms, max %.1f ms; FX-thread update median %.1f ms, max %.1f ms",
                    "FX thread over %d cycles: longest stall %d ms, stalls over 50 ms: %d",
                    "search over all rows (FX thread): %.1f ms; group by editor (FX thread): %.1f ms",
                    "full reload with 500 changed: database %.1f ms, FX-thread update %.1f ms",
                    "cores: %d"),
                    LEASES, EDITORS, CHURN, firstLoadMillis, first.databaseNanos() / 1_000_000, first.applyNanos() / 1e6, firstLoadStall,
                    incremental.size(), median(incremental, c -> c.articlesAsked()),
                    median(incremental, HoldersViewModel.RefreshCost::databaseNanos) / 1e6,
                    max(incremental, HoldersViewModel.RefreshCost::databaseNanos) / 1e6,
                    median(incremental, HoldersViewModel.RefreshCost::applyNanos) / 1e6,
                    max(incremental, HoldersViewModel.RefreshCost::applyNanos) / 1e6,
                    CYCLES, maxStall, stalls, filterNanos / 1e6, groupNanos / 1e6,
                    full.databaseNanos() / 1e6, full.applyNanos() / 1e6, Runtime.getRuntime().availableProcessors());
            log.info("\n{}", report);
            Path out = Path.of("target", "dashboard-benchmark.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report + "\n", StandardCharsets.UTF_8);
        } finally {
            watchdog.close();
            FxToolkit.setupFixture(() -> model[0].close());
            FxToolkit.cleanupStages();
            tasks.close();
        }
    }

    private static List<Long> pick(List<Long> ids, Random random) {
        List<Long> chosen = new ArrayList<>();
        for (int i = 0; i < CHURN; i++) {
            chosen.add(ids.get(random.nextInt(ids.size())));
        }
        return chosen;
    }

    /** What a heartbeat does to a lease: a later expiry, one more renewal, and a 'renew' event. */
    private void renew(List<Long> which) {
        dsl.transaction(c -> {
            DSLContext tx = c.dsl();
            tx.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(30)))
                    .set(ARTICLE.RENEWALS, ARTICLE.RENEWALS.plus(1)).where(ARTICLE.ID.in(which)).execute();
            var insert = tx.insertInto(LEASE_EVENT, LEASE_EVENT.OCCURRED_AT, LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY,
                    LEASE_EVENT.ACTION, LEASE_EVENT.ACTOR);
            for (Long id : which) {
                insert = insert.values(ServerClock.now(), DSL.val("article"), DSL.val(Long.toString(id)), DSL.val("renew"),
                        DSL.val("bench"));
            }
            insert.execute();
        });
    }

    private static <T> T fx(java.util.concurrent.Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long median(List<HoldersViewModel.RefreshCost> costs, java.util.function.ToLongFunction<HoldersViewModel.RefreshCost> f) {
        long[] v = costs.stream().mapToLong(f).sorted().toArray();
        return v.length == 0 ? 0 : v[v.length / 2];
    }

    private static long max(List<HoldersViewModel.RefreshCost> costs, java.util.function.ToLongFunction<HoldersViewModel.RefreshCost> f) {
        return costs.stream().mapToLong(f).max().orElse(0);
    }

}
