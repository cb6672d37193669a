package org.copydesk.ui;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;
import static org.copydesk.testing.Await.waitForOnFxThread;

import com.zaxxer.hikari.HikariDataSource;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.event.ActionEvent;
import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.SignIn;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Theme;
import org.copydesk.ui.editor.EditorView;
import org.copydesk.ui.editor.EditorViewModel;
import org.copydesk.ui.editor.SignInView;
import org.copydesk.ui.editor.SignInViewModel;

/**
 * Takes the screenshots in docs/screenshots/ from the real views on a real session, in a real
 * window (run under Xvfb): {@code mvn -q test-compile exec:exec@screenshots} with DISPLAY set. The
 * demo newsroom lives in its own embedded database under target/, so nobody's data is touched.
 */
public final class ScreenshotTour {

    private final Path out;
    private final ReviewSession session;
    private final FxTaskExecutor tasks = new FxTaskExecutor(2);
    private Stage stage;
    private Scene scene;

    private ScreenshotTour(Path out, ReviewSession session) {
        this.out = out;
        this.session = session;
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        Files.createDirectories(out);
        System.setProperty("copydesk.prefs", "org/copydesk-screenshots");
        EmbeddedServer server = EmbeddedServer.startOrAttach(EmbeddedServer.Options.desktop(Path.of("target/screenshot-db")));
        try (Database db = Database.open(server.jdbcUrl("screenshots"), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(4), Database.SchemaAction.MIGRATE, null)) {
            ReviewSession session = new ReviewSession(db, ReviewSession.Options.defaults());
            db.dsl().deleteFrom(REVIEW_DRAFT).execute();
            db.dsl().deleteFrom(DECISION).execute();
            db.dsl().deleteFrom(LEASE_EVENT).execute();
            db.dsl().deleteFrom(ARTICLE).execute();
            db.dsl().deleteFrom(EDITOR_DESK).execute();
            db.dsl().deleteFrom(EDITOR).execute();
            db.dsl().deleteFrom(DESK).execute();
            DemoNewsroom.loadIfEmpty(db.dsl(), session.newsroom());
            CountDownLatch started = new CountDownLatch(1);
            Platform.startup(started::countDown);
            started.await();
            new ScreenshotTour(out, session).run();
        } finally {
            Platform.exit();
            server.close();
        }
        System.exit(0);
    }

    private void run() throws Exception {
        onFx(() -> {
            stage = new Stage();
            scene = new Scene(new HBox(), 1280, 800);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.setTitle("Copydesk");
            stage.show();
            // a window manager (openbox under Xvfb) may give a new window a size of its own
            stage.setWidth(1280);
            stage.setHeight(800);
        });

        DemoNewsroom.createDemoAccounts(session.database().dsl());
        SignIn prepared = SignIn.to(
                session.database().dataSource().unwrap(HikariDataSource.class).getJdbcUrl()
                        .replace("createDatabaseIfNotExist=true&", ""), "ann");
        SignInViewModel signIn = new SignInViewModel(prepared, tasks, Preferences.userRoot().node("org/copydesk-screenshots"));
        onFx(() -> scene.setRoot(new SignInView(signIn, s -> { })));
        shoot("sign-in");
        onFx(() -> {
            signIn.passwordProperty().set(DemoNewsroom.demoPassword("ann"));
            signIn.signIn();
        });
        waitForOnFxThread(30, () -> signIn.editorProperty().get() != null);
        shoot("sign-in-desks");

        Editor ann = session.newsroom().requireEditor("ann");
        EditorViewModel model = new EditorViewModel(session, tasks, new FxTicker(), ann, ann.desks(),
                EditorViewModel.Settings.defaults(), ZoneId.systemDefault());
        EditorView[] view = new EditorView[1];
        onFx(() -> {
            view[0] = new EditorView(model, new HBox());
            scene.setRoot(view[0]);
            model.start();
        });
        waitForOnFxThread(30, () -> model.articles().size() == 5 && !model.bodyProperty().get().startsWith("Loading"));
        onFx(() -> {
            model.selectNext();
            model.verdictProperty().set(Verdict.SEND_BACK);
            model.notesProperty().set("The second quote is attributed to the wrong councillor; please check the recording.");
        });
        waitForOnFxThread(30, () -> !model.bodyProperty().get().startsWith("Loading"));
        Thread.sleep(1500);
        shoot("editor-reviewing");

        // room to read: 1024x640, and 960x600 (a 1440x900 screen at 150 %), then narrower: the list folds
        for (int[] size : new int[][] {{1024, 640}, {960, 600}, {820, 600}}) {
            onFx(() -> {
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
            });
            Thread.sleep(800);
            shoot("editor-" + size[0] + "x" + size[1]);
        }
        onFx(() -> {
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        Thread.sleep(500);

        // closing the window or signing out while holding articles
        onFx(() -> view[0].beforeLeaving(() -> { }));
        Thread.sleep(400);
        shoot("editor-close-question");
        onFx(() -> scene.lookup("#leave-cancel").fireEvent(new ActionEvent()));

        // keyboard focus: Tab from "Send back" to "Unreviewable" draws the focus ring
        onFx(() -> {
            Node sendBack = scene.lookup("#verdict-send_back");
            sendBack.requestFocus();
            Event.fireEvent(sendBack, new KeyEvent(KeyEvent.KEY_PRESSED, "", "",
                    KeyCode.TAB, false, false, false, false));
        });
        Thread.sleep(500);
        shoot("editor-keyboard-focus");
        onFx(() -> Theme.DARK.apply(scene));
        Thread.sleep(500);
        shoot("editor-keyboard-focus-dark");
        onFx(() -> Theme.LIGHT.apply(scene));

        // a lease lost while reviewing: a supervisor takes the article back
        long held = model.selectedProperty().get().id();
        session.supervision().forceRelease(held, "sue", "Legal wants to read it before it runs");
        waitForOnFxThread(30, () -> model.articles().stream().noneMatch(r -> r.id() == held)); // the list watch notices within seconds
        Thread.sleep(300);
        shoot("editor-lease-lost");

        // expiring soon: the Sport desk's leases are cut to 100 s, so after a reload its articles
        // are inside the two-minute warning window
        session.database().dsl().update(DESK).set(DESK.LEASE_SECONDS, 100)
                .where(DESK.ID.eq("sport")).execute();
        onFx(model::reload);
        Thread.sleep(2500);
        shoot("editor-expiring");

        onFx(() -> {
            scene.getRoot().fireEvent(new KeyEvent(KeyEvent.KEY_PRESSED, "", "",
                    KeyCode.F1, false, false, false, false));
        });
        Thread.sleep(300);
        shoot("editor-shortcuts");
        onFx(() -> scene.getRoot().fireEvent(new KeyEvent(KeyEvent.KEY_PRESSED, "", "",
                KeyCode.ESCAPE, false, false, false, false)));

        onFx(() -> Theme.DARK.apply(scene));
        Thread.sleep(500);
        shoot("editor-dark");
        onFx(() -> Theme.LIGHT.apply(scene));
        model.close();

        // empty state: an editor whose desk has nothing available now
        session.database().dsl().update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.plus(ServerClock.now(), Duration.ofMinutes(95)))
                .where(ARTICLE.DESK_ID.eq("legal")).and(ARTICLE.LOCKED_BY.isNull()).execute();
        Editor cat = session.newsroom().requireEditor("cat");
        EditorViewModel empty = new EditorViewModel(session, tasks, new FxTicker(), cat, List.of("legal"),
                EditorViewModel.Settings.defaults(), ZoneId.systemDefault());
        onFx(() -> {
            scene.setRoot(new EditorView(empty, new HBox()));
            empty.start();
        });
        waitForOnFxThread(30, () -> empty.emptyTextProperty().get().startsWith("Nothing"));
        Thread.sleep(500);
        shoot("editor-empty");

        // work arriving while the editor has room: the nudge above the list
        session.database().dsl().update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.DESK_ID.eq("legal")).and(ARTICLE.LOCKED_BY.isNull()).limit(3).execute();
        waitForOnFxThread(30, () -> !empty.waitingProperty().get().isEmpty());
        Thread.sleep(300);
        shoot("editor-work-waiting");
        empty.close();
        new RevisionTour(session, tasks, scene, ScreenshotTour::onFx, name -> {
            try {
                shoot(name);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, (width, height) -> {
            stage.setWidth(width);
            stage.setHeight(height);
        }).run();
        onFx(stage::close);
    }

    private void shoot(String name) throws Exception {
        CompletableFuture<WritableImage> image = new CompletableFuture<>();
        Platform.runLater(() -> image.complete(scene.snapshot(null)));
        write(image.get(10, TimeUnit.SECONDS), out.resolve(name + ".png"));
        System.out.println("wrote " + out.resolve(name + ".png"));
    }

    private static void write(WritableImage image, Path file) throws IOException {
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage buffered = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                buffered.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        ImageIO.write(buffered, "png", file.toFile());
    }

    private static void onFx(Runnable action) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                action.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        done.get(30, TimeUnit.SECONDS);
    }

}
