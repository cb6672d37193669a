package org.copydesk.ui.app;

import atlantafx.base.theme.Styles;
import java.lang.management.ManagementFactory;
import java.time.ZoneId;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.prefs.Preferences;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.image.Image;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Editor;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.SignIn;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxThreadWatchdog;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.Theme;
import org.copydesk.ui.common.UiPreferences;
import org.copydesk.ui.editor.EditorView;
import org.copydesk.ui.editor.EditorViewModel;
import org.copydesk.ui.editor.SignInView;
import org.copydesk.ui.editor.SignInViewModel;
import org.copydesk.ui.editor.WorkChoiceModel;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root of the desktop app: connects (in the background, while a window already
 * shows what is happening), starts the in-client release service, and moves from sign-in to the
 * editor's window. The only place that wires db, review and ui together.
 */
public final class CopydeskApp extends Application {

    private static final Logger log = LoggerFactory.getLogger(CopydeskApp.class);

    private static volatile DatabaseConfig launchConfig = DatabaseConfig.embedded();

    private final FxTaskExecutor tasks = new FxTaskExecutor(3);
    private final Preferences prefs = UiPreferences.root();
    private Stage stage;
    private Scene scene;
    private Theme theme = UiPreferences.theme();
    private SignIn signIn;
    private SignInViewModel signInModel;
    private ReviewSession session;
    private ReleaseService releaseService;
    private EditorViewModel editorModel;
    private EditorView editorView;
    private final DesktopAttention attention = new DesktopAttention(CopydeskApp.class.getResource("/org/copydesk/icons/copydesk-64.png"));
    private final DashboardWindow dashboard = new DashboardWindow(attention::alert);
    private FxThreadWatchdog watchdog;
    private final AtomicBoolean closing = new AtomicBoolean();
    private OpenWindows openWindows;

    /** Opens the app on the given database and returns when its window has closed. */
    public static void launchWith(DatabaseConfig config) {
        launchConfig = Objects.requireNonNull(config);
        Application.launch(CopydeskApp.class);
    }

    @Override
    public void start(Stage primary) {
        this.stage = primary;
        if (Boolean.getBoolean("copydesk.fxWatchdog")) {
            watchdog = new FxThreadWatchdog(50);
        }
        // The sign-in form shows at once; the database is prepared behind it (see connect).
        signInModel = new SignInViewModel(null, tasks, prefs);
        scene = new Scene(new SignInView(signInModel, this::showEditor), 1280, 800);
        theme.apply(scene);
        stage.setScene(scene);
        stage.setTitle(Messages.text("common.appName"));
        addIcons(stage);
        openWindows = OpenWindows.forCurrentUser();
        int cascade = openWindows.open().size(); // each window already open moves this one a step
        WindowState window = WindowState.load(prefs);
        window.applyTo(stage, cascade);
        stage.setOnCloseRequest(e -> {
            e.consume();
            afterAskingAboutHeldArticles(this::shutDown);
        });
        stage.show();
        window.applyTo(stage, cascade); // again: see WindowState.applyTo
        WindowState.keepOnScreen(stage);
        connect(launchConfig);
    }

    private void connect(DatabaseConfig config) {
        long started = System.nanoTime();
        log.info("Usable window {} ms after JVM start", ManagementFactory.getRuntimeMXBean().getUptime());
        signInModel.preparing(config.isEmbedded()
                ? Messages.text("app.startingEmbedded")
                : Messages.text("app.connectingTo", config.url().replaceAll("\\?.*", "")));
        tasks.run("connect", () -> SignIn.prepare(config, AppDirectories.forCurrentUser()), prepared -> {
            signIn = prepared;
            signInModel.prepared(prepared);
            log.info("Database ready for sign-in {} ms after JVM start ({} ms preparing it)",
                    ManagementFactory.getRuntimeMXBean().getUptime(), (System.nanoTime() - started) / 1_000_000);
        }, failure -> scene.setRoot(cannotConnect(config, failure)));
    }

    private void showSignIn() {
        signInModel = new SignInViewModel(signIn, tasks, prefs);
        scene.setRoot(new SignInView(signInModel, this::showEditor));
    }

    /** The person's own session from here on: their account is who the database sees. */
    private void showEditor(SignInViewModel.SignedIn signedIn) {
        session = signedIn.session();
        releaseService = session.releaseService(released -> { });
        releaseService.start();
        editorModel = new EditorViewModel(session, tasks, new FxTicker(), signedIn.editor(), signedIn.desks(),
                EditorViewModel.Settings.defaults(), ZoneId.systemDefault());
        editorView = new EditorView(editorModel, toolbarExtras(signedIn.editor()), prefs, attention::alert);
        if (!signedIn.editor().role().canSupervise()) {
            editorView.offerWorkChoice(new WorkChoiceModel(session, tasks, signedIn.editor().id()));
        }
        scene.setRoot(editorView);
        stage.setTitle(Messages.text("app.title.signedIn", signedIn.editor().displayName()));
        if (signedIn.editor().role().canSupervise()) {
            // a supervisor signs in to the dashboard and takes work only on Get articles
            editorModel.startWithoutClaiming();
            dashboard.open(signedIn.editor(), session, tasks, theme, stage);
        } else {
            editorModel.start();
        }
        EditorViewModel signedInModel = editorModel;
        String where = signIn == null ? "" : signIn.where();
        tasks.run("open windows", () -> openWindows.signedIn(signedIn.editor().id(), where), same -> {
            if (!same.isEmpty() && editorModel == signedInModel) {
                signedInModel.tell(Notice.Kind.WARNING,
                        Messages.text("app.signedInTwice", signedIn.editor().displayName()));
            }
        }, failure -> log.debug("Could not look for other windows: {}", failure.toString()));
    }

    /** Closing or signing out while holding articles asks "Give back your 4 articles?" first. */
    private void afterAskingAboutHeldArticles(Runnable leave) {
        if (editorView == null) {
            leave.run();
            return;
        }
        // another window signed in as the same person works on the same articles: they are not offered back
        EditorView view = editorView;
        String who = editorModel.editor().id();
        String where = signIn == null ? "" : signIn.where();
        tasks.run("other windows", () -> openWindows.alsoSignedIn(who, where), others -> {
            if (editorView == view) {
                view.beforeLeaving(leave, !others.isEmpty());
            }
        }, failure -> view.beforeLeaving(leave, false));
    }

    /** Ends the person's session: saves what they typed, stops their release service, closes their pool off the FX thread. */
    private void signOut() {
        editorView = null;
        if (editorModel != null) {
            editorModel.close();
            editorModel = null;
        }
        dashboard.close();
        ReleaseService release = releaseService;
        ReviewSession closing = session;
        releaseService = null;
        session = null;
        tasks.run("sign out", () -> {
            if (release != null) {
                release.close();
            }
            if (closing != null) {
                closing.close();
            }
            return true;
        }, done -> { }, failure -> log.warn("Signing out did not close cleanly", failure));
        stage.setTitle(Messages.text("common.appName"));
        tasks.run("open windows", () -> openWindows.signedIn("", ""), none -> { }, failure -> { });
        showSignIn();
    }

    private Node toolbarExtras(Editor editor) {
        Button themeButton = new Button(null, new FontIcon(theme == Theme.DARK ? Feather.SUN : Feather.MOON));
        themeButton.setAccessibleText(Messages.text("app.theme.accessible"));
        themeButton.setId("theme-toggle");
        themeButton.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        themeButton.setTooltip(new Tooltip(Messages.text("app.theme.tooltip")));
        themeButton.setOnAction(e -> {
            theme = theme.other();
            theme.apply(scene);
            UiPreferences.saveTheme(theme);
            themeButton.setGraphic(new FontIcon(theme == Theme.DARK ? Feather.SUN : Feather.MOON));
        });
        Button signOut = new Button(null, new FontIcon(Feather.LOG_OUT));
        signOut.setAccessibleText(Messages.text("app.signOut.accessible"));
        signOut.setId("sign-out");
        signOut.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        signOut.setTooltip(new Tooltip(Messages.text("app.signOut.tooltip")));
        signOut.setOnAction(e -> afterAskingAboutHeldArticles(this::signOut));
        HBox box = new HBox(4, themeButton, signOut);
        if (editor.role().canSupervise()) {
            box.getChildren().add(0, dashboard.button(editor, session, tasks, () -> theme));
        }
        box.setAlignment(Pos.CENTER);
        return box;
    }

    private Parent cannotConnect(DatabaseConfig config, Throwable failure) {
        if (failure instanceof DatabaseSetupException) {
            // A problem the person can fix, explained in the window; a stack trace would only alarm.
            log.warn("Could not open the database: {}", failure.getMessage());
        } else {
            log.warn("Could not open the database", failure);
        }
        Label title = new Label(Messages.text("app.cannotOpenDatabase"), new FontIcon(Feather.ALERT_TRIANGLE));
        title.getStyleClass().add(Styles.TITLE_3);
        Label message = new Label(ConnectionTrouble.describe(failure));
        message.setId("connect-error");
        message.setWrapText(true);
        message.setMaxWidth(560);
        Button retry = new Button(Messages.text("app.tryAgain"), new FontIcon(Feather.REFRESH_CW));
        retry.getStyleClass().add(Styles.ACCENT);
        retry.setOnAction(e -> {
            signInModel = new SignInViewModel(null, tasks, prefs);
            scene.setRoot(new SignInView(signInModel, this::showEditor));
            connect(config);
        });
        VBox box = new VBox(14, title, message, retry);
        box.setAlignment(Pos.CENTER);
        StackPane pane = new StackPane(box);
        pane.getStyleClass().add("connecting");
        return pane;
    }

    private static void addIcons(Stage stage) {
        for (int size : new int[] {16, 32, 48, 64, 128, 256}) {
            var url = CopydeskApp.class.getResource("/org/copydesk/icons/copydesk-" + size + ".png");
            if (url != null) {
                stage.getIcons().add(new Image(url.toExternalForm()));
            }
        }
    }

    /** The window's close button: saves what the editor typed and the window's place, closes the database, exits. */
    private void shutDown() {
        saveAndHide();
        closeInBackground(Platform::exit);
    }

    /**
     * JavaFX's own end of the application: after {@link #shutDown()} there is nothing left to do;
     * after {@code Platform.exit()} from anywhere else (or a test harness) the same things are
     * released here. The window is gone by now, so waiting a bounded time for the closer is safe.
     */
    @Override
    public void stop() throws InterruptedException {
        if (stage != null && stage.isShowing()) {
            saveAndHide();
        }
        Thread closer = closeInBackground(() -> { });
        if (closer != null) {
            closer.join(15_000);
        }
    }

    private void saveAndHide() {
        WindowState.of(stage).save(prefs);
        if (editorModel != null) {
            editorModel.close();
        }
        dashboard.close();
        attention.close();
        stage.hide();
    }

    /** Closes the release service, background work and database pools once, off the FX thread; null if already done. */
    private Thread closeInBackground(Runnable then) {
        if (!closing.compareAndSet(false, true)) {
            return null;
        }
        Thread closer = new Thread(() -> {
            try {
                if (releaseService != null) {
                    releaseService.close();
                }
                tasks.close(); // waits (bounded) for work under way, such as a draft being saved
                if (session != null) {
                    session.close();
                }
                if (signIn != null) {
                    signIn.close();
                }
                if (openWindows != null) {
                    openWindows.close();
                }
            } finally {
                if (watchdog != null) {
                    log.info("FX thread: longest stall {} ms, {} stall(s) over 50 ms, I/O on the FX thread: {}",
                            watchdog.maxStallMillis(), watchdog.stallsOverThreshold(), watchdog.ioOnFxThread().size());
                    watchdog.close();
                }
                then.run();
            }
        }, "copydesk-shutdown");
        closer.start();
        return closer;
    }

    /** For tests: the database the next launched app uses. */
    static void useDatabase(DatabaseConfig config) {
        launchConfig = Objects.requireNonNull(config);
    }

    /** The FX-thread watchdog, when enabled with {@code -Dcopydesk.fxWatchdog=true}. */
    FxThreadWatchdog watchdog() {
        return watchdog;
    }
}
