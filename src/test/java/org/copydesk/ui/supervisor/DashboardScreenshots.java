package org.copydesk.ui.supervisor;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.RELAY_LEASE;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.DeskQueue;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Theme;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Screenshots of the dashboard's tabs for docs/screenshots, with the demo newsroom on the embedded
 * database: the real view and view model on the real services, in a real window (run it under
 * Xvfb with {@code DISPLAY} set). A day of work is simulated first (claims, decisions spread over
 * the last 24 hours, expired leases, a quarantined article, rows an import refused).
 *
 * <p>Usage: {@code java -cp … org.copydesk.ui.supervisor.DashboardScreenshots COPYDESK_HOME OUTPUT_DIR [light|dark]}
 * with a fresh COPYDESK_HOME (the day is simulated again on every run). Under Xvfb the pointer may
 * sit where the window opens, and "Who holds what" holds still under the pointer (an empty table,
 * "14 changes wait"); the tour shows the held rows before its first shot.
 */
public final class DashboardScreenshots {

    private DashboardScreenshots() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Theme theme = args.length > 2 && args[2].equals("dark") ? Theme.DARK : Theme.LIGHT;
        Files.createDirectories(out);
        ReviewSession services = ReviewSession.open(DatabaseConfig.embedded(), new AppDirectories(home),
                DataSources.PoolSize.of(4), ReviewSession.Options.defaults());
        DemoNewsroom.prepareSingleComputerDemo(services.database().dsl(), services.newsroom()); // as the app's first run does
        simulateADay(services);
        Editor sue = services.newsroom().requireEditor("sue");

        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        FxTaskExecutor tasks = new FxTaskExecutor(2);
        DashboardViewModel[] model = new DashboardViewModel[1];
        DashboardView[] view = new DashboardView[1];
        Stage[] stage = new Stage[1];
        onFx(() -> {
            model[0] = new DashboardViewModel(services, tasks, new FxTicker(), sue, DashboardViewModel.Settings.defaults(),
                    ZoneId.of("Europe/Berlin"));
            view[0] = new DashboardView(model[0]);
            Scene scene = new Scene(view[0], 1360, 840);
            theme.apply(scene);
            stage[0] = new Stage();
            stage[0].setTitle("Copydesk \u2014 Dashboard \u2014 Sue Lindqvist");
            stage[0].setScene(scene);
            stage[0].show();
            // a window manager (openbox under Xvfb) may open it at a size of its own
            stage[0].setWidth(1360);
            stage[0].setHeight(840);
            model[0].start();
        });
        Thread.sleep(4000);
        // a loaded machine may take longer than that for the first read; select only once rows are there
        for (int i = 0; i < 60 && model[0].holders().rows().isEmpty(); i++) {
            Thread.sleep(500);
        }
        String suffix = theme == Theme.DARK ? "-dark" : "";
        onFx(() -> {
            // under Xvfb the pointer may sit where the window opens, and the table holds still under it
            model[0].holders().showHeldChanges();
            model[0].holders().selectedProperty().set(model[0].holders().rows().stream().filter(r -> r.editorId().equals("dan")).findFirst()
                    .orElse(null));
            model[0].leaseActions().reassignToProperty().set(model[0].leaseActions().reassignCandidates().stream().filter(e -> e.id().equals("ann"))
                    .findFirst().orElse(null));
        });
        Thread.sleep(800);
        snapshot(stage[0], out.resolve("dashboard-holders" + suffix + ".png"));
        onFx(() -> {
            model[0].holders().groupingProperty().set(Grouping.EDITOR);
            sortHoldersBy(stage[0], "col-desk"); // as a click on the Desk header does
        });
        Thread.sleep(800);
        snapshot(stage[0], out.resolve("dashboard-holders-grouped" + suffix + ".png"));
        onFx(() -> {
            model[0].holders().groupingProperty().set(Grouping.NONE);
            sortHoldersBy(stage[0], null);
            model[0].holders().searchProperty().set("obituary");
        });
        Thread.sleep(800);
        snapshot(stage[0], out.resolve("dashboard-holders-no-match" + suffix + ".png"));
        onFx(() -> model[0].holders().searchProperty().set(""));
        onFx(() -> {
            // several leases selected: the highlight shows on each
            model[0].holders().select(model[0].holders().rows().stream().filter(r -> r.editorId().equals("ann")).toList());
        });
        Thread.sleep(800);
        snapshot(stage[0], out.resolve("dashboard-holders-selected" + suffix + ".png"));
        for (DashboardTab tab : List.of(DashboardTab.QUEUE, DashboardTab.HEALTH, DashboardTab.EDITORS, DashboardTab.AUDIT,
                DashboardTab.QUARANTINE, DashboardTab.RELAY)) {
            onFx(() -> view[0].show(tab));
            Thread.sleep(2500);
            if (tab == DashboardTab.QUEUE) {
                onFx(() -> model[0].queue().deskProperty().set(model[0].queue().desks().stream()
                        .filter(d -> d.id().equals("news")).findFirst().orElseThrow()));
                Thread.sleep(1500);
                onFx(() -> {
                    QueueViewModel queue = model[0].queue();
                    queue.selectedProperty().set(queue.items().stream().filter(i -> i.keptFrom() != null).findFirst()
                            .orElse(queue.items().get(2)));
                    model[0].queueActions().giveToProperty().set(model[0].queueActions().candidates().stream()
                            .filter(e -> e.id().equals("cat")).findFirst().orElse(null));
                    model[0].queueActions().reasonProperty().set("Cat covers the courts today");
                    model[0].queueActions().giveSelected();
                });
                Thread.sleep(1000);
            }
            if (tab == DashboardTab.AUDIT) {
                onFx(() -> model[0].audit().showHistory(model[0].audit().entries().stream()
                        .filter(e -> e.action().equals("force_release")).findFirst().orElse(model[0].audit().entries().get(0))));
                Thread.sleep(1000);
            }
            if (tab == DashboardTab.QUARANTINE) {
                onFx(() -> model[0].quarantine().selectedRejectProperty().set(model[0].quarantine().importRejects().get(0)));
                Thread.sleep(500);
            }
            if (tab == DashboardTab.RELAY) {
                onFx(() -> model[0].relay().selectedProperty().set(model[0].relay().rows().get(0)));
                Thread.sleep(500);
            }
            snapshot(stage[0], out.resolve("dashboard-" + tab.fileStem() + suffix + ".png"));
        }
        onFx(() -> {
            model[0].close();
            stage[0].hide();
        });
        tasks.close();
        services.close();
        Platform.exit();
        System.exit(0);
    }

    /** Editors at work: leases held, a day of decisions, some leases that ran out, quarantine. */
    private static void simulateADay(ReviewSession services) {
        DSLContext dsl = services.database().dsl();
        if (dsl.fetchExists(DECISION)) {
            return; // simulated before in this home
        }
        Random random = new Random(42);
        for (String editor : List.of("ann", "bob", "cat", "dan", "ann", "bob", "cat", "dan", "ann", "bob")) {
            List<HeldArticle> held = services.queue().claim(editor).articles();
            for (HeldArticle a : held.subList(0, Math.min(2, held.size()))) {
                Verdict v = random.nextInt(6) == 0 ? Verdict.REJECT : Verdict.APPROVE;
                services.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), v,
                        v == Verdict.REJECT ? "Not for us" : ""));
            }
        }
        // spread the decisions over the last 24 hours, busier in the daytime
        for (Long id : dsl.select(DECISION.ID).from(DECISION).fetch(DECISION.ID)) {
            int hoursAgo = random.nextInt(24);
            dsl.update(DECISION).set(DECISION.DECIDED_AT, ServerClock.nowPlus(Duration.ofMinutes(-hoursAgo * 60L - random.nextInt(60))))
                    .where(DECISION.ID.eq(id)).execute();
        }
        // leases that ran out over the day
        for (int i = 0; i < 14; i++) {
            dsl.insertInto(LEASE_EVENT, LEASE_EVENT.OCCURRED_AT, LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTION,
                            LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER, LEASE_EVENT.DETAIL)
                    .values(ServerClock.nowPlus(Duration.ofMinutes(-60L * random.nextInt(24) - random.nextInt(60))), DSL.val("article"),
                            DSL.val(Long.toString(1 + random.nextInt(300))), DSL.val("expire"), DSL.val("release-service"),
                            DSL.val(List.of("ann", "bob", "cat", "dan").get(random.nextInt(4))), DSL.val("lease expired"))
                    .execute();
        }
        // something for each action, the supervisor's overrides on the queue among them
        List<HeldArticle> dans = services.queue().held("dan");
        services.supervision().forceRelease(dans.get(0).id(), "sue", "Legal needs to see this first");
        DeskQueue.Snapshot news = services.deskQueue().of("news");
        List<DeskQueue.Item> waiting = news.in(DeskQueue.Place.WAITING);
        services.queueOverrides().hold(waiting.get(3).id(), "sue", "Waiting for the minister's reply");
        services.queueOverrides().moveToFront(waiting.get(6).id(), "sue", "Print deadline at 18:00");
        services.supervision().extend(services.queue().held("ann").get(0).id(), Duration.ofMinutes(15), "sue");
        HeldArticle cats = services.queue().held("cat").get(0);
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), cats.id(), cats.lease(), Verdict.UNREVIEWABLE,
                "Body is cut off after the second paragraph"));
        services.queue().claim("sue");
        for (String editor : List.of("ann", "dan", "sue")) {
            services.queue().recordPresence(editor);
        }
        dsl.update(org.copydesk.db.schema.Tables.EDITOR).set(org.copydesk.db.schema.Tables.EDITOR.LAST_SEEN_AT,
                ServerClock.nowPlus(Duration.ofMinutes(-9))).where(org.copydesk.db.schema.Tables.EDITOR.ID.eq("bob")).execute();
        dsl.insertInto(IMPORT_QUARANTINE, IMPORT_QUARANTINE.IMPORT_ID, IMPORT_QUARANTINE.SOURCE_NAME, IMPORT_QUARANTINE.LINE_NUMBER,
                        IMPORT_QUARANTINE.RAW_TEXT, IMPORT_QUARANTINE.REASON)
                .values("wire-0612", "wire-0612.jsonl", 17L,
                        "{\"external_id\": \"wire-88121\", \"desk\": \"nwes\", \"title\": \"Port strike ends after nine days\", "
                                + "\"body\": \"Dock workers return on Monday.\"}", "unknown desk 'nwes'")
                .values("wire-0612", "wire-0612.jsonl", 42L, "{\"external_id\": \"wire-88154\", \"desk\": \"sport\", \"title\": \"\"}",
                        "title is empty")
                // a CSV row is kept with its header line; the correction box offers it as JSON
                .values("wire-0613", "wire-0613.csv", 4L, "external_id,desk,title,byline,body,priority,available_at\n"
                        + "wire-0003,sport,Cup draw made,,,3,", "body is empty")
                .execute();
        dsl.update(ARTICLE).set(ARTICLE.RENEWALS, 2).where(ARTICLE.LOCKED_BY.eq("ann")).execute();
        relayedMostOutcomes(dsl);
    }

    /** The relay delivered all but the last few outcomes; the receiver refused one for good. */
    private static void relayedMostOutcomes(DSLContext dsl) {
        List<Long> cursors = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ID);
        if (cursors.size() < 4) {
            return;
        }
        int waitingFrom = cursors.size() - 3;
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.delivered).set(OUTCOME_EVENT.ATTEMPTS, 1)
                .set(OUTCOME_EVENT.LAST_ATTEMPT_AT, OUTCOME_EVENT.DECIDED_AT).set(OUTCOME_EVENT.LAST_ANSWER, "HTTP 200")
                .where(OUTCOME_EVENT.ID.lt(cursors.get(waitingFrom))).execute();
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.failed).set(OUTCOME_EVENT.ATTEMPTS, 12)
                .set(OUTCOME_EVENT.LAST_ATTEMPT_AT, ServerClock.nowPlus(Duration.ofMinutes(-7))).setNull(OUTCOME_EVENT.NEXT_ATTEMPT_AT)
                .set(OUTCOME_EVENT.LAST_ANSWER, "HTTP 422: {\"error\": \"unknown_section\", \"message\": \"No section is mapped to"
                        + " this desk. Map it under Settings > Copydesk, then retry.\"}")
                .where(OUTCOME_EVENT.ID.eq(cursors.get(waitingFrom - 1))).execute();
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.ATTEMPTS, 2).set(OUTCOME_EVENT.LAST_ATTEMPT_AT, ServerClock.nowPlus(Duration.ofMinutes(-1)))
                .set(OUTCOME_EVENT.NEXT_ATTEMPT_AT, ServerClock.nowPlus(Duration.ofSeconds(40)))
                .set(OUTCOME_EVENT.LAST_ANSWER, "could not reach the receiver: connect timed out")
                .where(OUTCOME_EVENT.ID.eq(cursors.get(waitingFrom))).execute();
        dsl.update(RELAY_LEASE).set(RELAY_LEASE.HOLDER, "cms-relay@wire-01").set(RELAY_LEASE.EXPIRES_AT, ServerClock.nowPlus(
                Duration.ofMinutes(5))).execute();
    }

    private static void onFx(Runnable r) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            try {
                r.run();
            } finally {
                done.countDown();
            }
        });
        if (!done.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("FX thread did not answer");
        }
    }

    /** The scene as drawn, written as PNG through java.desktop's ImageIO (no javafx-swing needed). */
    @SuppressWarnings("unchecked")
    private static void sortHoldersBy(Stage stage, String columnId) {
        javafx.scene.control.TableView<HolderRow> table =
                (javafx.scene.control.TableView<HolderRow>) stage.getScene().lookup("#holders");
        table.getSortOrder().setAll(table.getColumns().stream().filter(c -> c.getId() != null && c.getId().equals(columnId)).toList());
    }

    private static void snapshot(Stage stage, Path file) throws Exception {
        WritableImage[] image = new WritableImage[1];
        onFx(() -> image[0] = stage.getScene().snapshot(null));
        int w = (int) image[0].getWidth();
        int h = (int) image[0].getHeight();
        PixelReader pixels = image[0].getPixelReader();
        BufferedImage png = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                png.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        ImageIO.write(png, "png", file.toFile());
    }
}
