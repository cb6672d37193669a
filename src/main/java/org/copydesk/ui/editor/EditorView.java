package org.copydesk.ui.editor;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.util.EnumMap;
import java.util.Map;
import java.util.prefs.Preferences;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Chrome;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeArea;
import org.copydesk.ui.common.UiPreferences;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The editor's window: "My articles" with countdowns on the left, the reader in the middle, the
 * review panel on the right. Keyboard first; every shortcut is in a tooltip and in the F1 overlay.
 * Binds to {@link EditorViewModel} and calls nothing else.
 */
public final class EditorView extends StackPane {

    static final KeyCombination RELOAD = new KeyCodeCombination(KeyCode.F5);
    static final KeyCombination NEXT = new KeyCodeCombination(KeyCode.DOWN, KeyCombination.ALT_DOWN);
    static final KeyCombination PREVIOUS = new KeyCodeCombination(KeyCode.UP, KeyCombination.ALT_DOWN);
    static final KeyCombination SUBMIT = new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination RELEASE = new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    static final KeyCombination HELP = new KeyCodeCombination(KeyCode.F1);
    /**
     * Takes back the decision just made, while its Undo shows. Not Ctrl+Z: that is the notes' own
     * undo of typing, which an editor uses all day. While no decision waits, this key is the notes' redo.
     */
    static final KeyCombination UNDO = new KeyCodeCombination(KeyCode.Z, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    static final KeyCombination SHOW_NEWER = new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    static final KeyCombination KEEP = new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    static final Map<Verdict, KeyCombination> VERDICT_KEYS = new EnumMap<>(Map.of(
            Verdict.APPROVE, new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN),
            Verdict.REJECT, new KeyCodeCombination(KeyCode.DIGIT2, KeyCombination.SHORTCUT_DOWN),
            Verdict.SEND_BACK, new KeyCodeCombination(KeyCode.DIGIT3, KeyCombination.SHORTCUT_DOWN),
            Verdict.UNREVIEWABLE, new KeyCodeCombination(KeyCode.DIGIT4, KeyCombination.SHORTCUT_DOWN)));


    /** Below this width the toolbar shows the app's icon without its name. */
    private static final double WIDE_TOOLBAR = 1100;

    private final EditorViewModel model;
    private final Node toolbarExtras;
    private final EditorSettingsMenu settings;
    private final LeaveQuestion leaveQuestion = new LeaveQuestion();
    private final DesktopAttention.Alerts alerts;
    private final ShortcutsCard shortcuts = new ShortcutsCard();
    private final ReviewPanelView review;
    private WorkChoiceOverlay workChoice;

    /**
     * @param toolbarExtras controls the app adds to the toolbar (theme switch, sign out, dashboard)
     */
    public EditorView(EditorViewModel model, Node toolbarExtras) {
        this(model, toolbarExtras, UiPreferences.root(), DesktopAttention.NONE);
    }

    /**
     * @param prefs  where the window's settings are remembered (topping up, text size)
     * @param alerts the desktop's notifications, used while the window is not in front
     */
    public EditorView(EditorViewModel model, Node toolbarExtras, Preferences prefs, DesktopAttention.Alerts alerts) {
        this.model = model;
        this.toolbarExtras = toolbarExtras;
        this.alerts = alerts;
        this.settings = new EditorSettingsMenu(model.settings());
        model.settings().rememberIn(prefs);
        this.review = new ReviewPanelView(model);
        createView();
        initListeners();
    }

    private void createView() {
        BorderPane root = new BorderPane();
        root.setTop(createToolbar());
        ReadingLayout panes = new ReadingLayout(new ArticleListView(model), new ReaderView(model), review);
        root.setCenter(Chrome.underBanner(panes, createBanner()));
        // notices in their own strip above the status bar: they push the panes up, never cover a control
        root.setBottom(new VBox(NoticeArea.strip(model.notices(), model::dismiss), createStatusBar()));
        getChildren().addAll(root, shortcuts, leaveQuestion);
        getStyleClass().add("editor-view");
    }

    private Node createToolbar() {
        Label app = new Label(Messages.text("common.appName"));
        app.getStyleClass().addAll(Styles.TITLE_4, "app-name");
        app.setGraphic(new FontIcon(Feather.FILE_TEXT));
        app.setMinWidth(Region.USE_PREF_SIZE);
        Label who = new Label(model.editor().displayName());
        who.getStyleClass().add(Styles.TEXT_BOLD);
        who.setGraphic(new FontIcon(Feather.USER));
        who.setMinWidth(Region.USE_PREF_SIZE);
        Label desks = new Label();
        desks.textProperty().bind(model.deskSummaryProperty());
        desks.getStyleClass().add(Styles.TEXT_MUTED);
        desks.setId("desk-summary");
        desks.setMinWidth(0); // the desks give way first in a narrow window ("News, Sport, Cul…"), all of them in the tooltip
        Tooltip allDesks = new Tooltip();
        allDesks.textProperty().bind(model.deskSummaryProperty());
        desks.setTooltip(allDesks);

        Button reload = new Button(Messages.text("editor.getArticles"), new FontIcon(Feather.REFRESH_CW));
        reload.setId("reload");
        reload.getStyleClass().add(Styles.ACCENT);
        reload.setTooltip(new Tooltip(Messages.text("editor.getArticles.tooltip")));
        reload.disableProperty().bind(model.canReloadProperty().not());
        reload.setOnAction(e -> model.reload());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(model.loadingProperty());
        busy.managedProperty().bind(busy.visibleProperty());

        Button help = new Button(null, new FontIcon(Feather.HELP_CIRCLE));
        help.setId("help");
        help.setAccessibleText(Messages.text("editor.help.title"));
        help.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        help.setTooltip(new Tooltip(Messages.text("editor.help.tooltip")));
        help.setOnAction(e -> shortcuts.toggle());

        HBox bar = Chrome.toolbar(new Node[] {app, Chrome.separator(), who, desks}, busy, reload, toolbarExtras, settings, help);
        // a narrow window (1024 px, or 150 % scaling) keeps the app's icon, not its name: the title bar says it
        app.contentDisplayProperty().bind(Bindings.when(bar.widthProperty().lessThan(WIDE_TOOLBAR))
                .then(ContentDisplay.GRAPHIC_ONLY).otherwise(ContentDisplay.LEFT));
        return bar;
    }

    private Label createBanner() {
        return Chrome.offlineBanner(model.bannerProperty(), model.offlineProperty());
    }

    private Node createStatusBar() {
        Label clock = new Label(Messages.text("editor.serverClock"));
        clock.setGraphic(new FontIcon(Feather.CLOCK));
        clock.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Label keys = new Label(Messages.text("editor.keysHint", VERDICT_KEYS.get(Verdict.APPROVE).getDisplayText(),
                VERDICT_KEYS.get(Verdict.UNREVIEWABLE).getDisplayText(), SUBMIT.getDisplayText()));
        keys.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Spacer spacer = new Spacer();
        HBox bar = new HBox(12, clock, spacer, keys);
        bar.setPadding(new Insets(6, 16, 6, 16));
        bar.getStyleClass().add("status-bar");
        return bar;
    }

    /**
     * Before the window closes or the editor signs out: with articles held, asks "Give back your 4
     * articles?" (giving back is the default) and leaves when answered; otherwise leaves at once.
     * Offline nothing can be given back, and nothing is asked.
     */
    public void beforeLeaving(Runnable leave) {
        beforeLeaving(leave, false);
    }

    /**
     * As {@link #beforeLeaving(Runnable)}; {@code sharedWithAnotherWindow}: the same person is
     * signed in in another window on this computer, which works on the same articles, so nothing
     * is offered to give back and closing keeps them (the default).
     */
    public void beforeLeaving(Runnable leave, boolean sharedWithAnotherWindow) {
        int held = model.articles().size();
        if (held == 0 || model.offlineProperty().get()) {
            leave.run();
        } else if (sharedWithAnotherWindow) {
            leaveQuestion.askShared(held, leave);
        } else {
            leaveQuestion.ask(held, hide -> model.giveBackAll(() -> {
                hide.run();
                leave.run();
            }), leave);
        }
    }

    /** True while this window is the one in front (has the focus). */
    private boolean inFront() {
        var window = getScene() == null ? null : getScene().getWindow();
        return window == null || window.isFocused();
    }

    /**
     * Lets the editor choose again, from the settings menu, the desks and stages they take work
     * from (the app offers it to editors; a supervisor chooses on the dashboard).
     */
    public void offerWorkChoice(WorkChoiceModel choice) {
        workChoice = new WorkChoiceOverlay(choice, summary -> {
            model.tell(Notice.Kind.INFO, Messages.text("editor.workChoice.kept", summary));
            model.workChoiceKept();
        });
        getChildren().add(workChoice);
        settings.offerWorkChoice(workChoice::open);
    }

    private void initListeners() {
        model.onAttention(DesktopAttention.whileInBackground(this::inFront, alerts));
        model.inFrontWhen(this::inFront);
        addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
        addEventFilter(KeyEvent.KEY_TYPED, e -> model.activity());
        addEventFilter(MouseEvent.MOUSE_PRESSED, e -> model.activity());
    }

    private void onKey(KeyEvent e) {
        model.activity();
        if (leaveQuestion.isVisible() || (workChoice != null && workChoice.isVisible())) {
            return; // the question takes the keys (Enter gives back or keeps, Esc cancels)
        }
        if (settings.handle(e)) {
            e.consume();
            return;
        }
        if (RELOAD.match(e)) {
            model.reload();
        } else if (NEXT.match(e)) {
            model.selectNext();
        } else if (PREVIOUS.match(e)) {
            model.selectPrevious();
        } else if (SUBMIT.match(e)) {
            model.submit();
        } else if (RELEASE.match(e)) {
            model.releaseSelectedByKey();
        } else if (UNDO.match(e)) {
            if (!model.keys().undoLast()) {
                return; // nothing to take back: the key is the notes' redo
            }
        } else if (SHOW_NEWER.match(e)) {
            model.keys().loadNewer();
        } else if (KEEP.match(e)) {
            model.keys().keepWarned();
        } else if (HELP.match(e)) {
            shortcuts.toggle();
        } else if (e.getCode() == KeyCode.ESCAPE && shortcuts.isVisible()) {
            shortcuts.setVisible(false);
        } else {
            for (Map.Entry<Verdict, KeyCombination> k : VERDICT_KEYS.entrySet()) {
                if (k.getValue().match(e) && model.selectedProperty().get() != null) {
                    model.verdictProperty().set(k.getKey());
                    review.focusNotes();
                    e.consume();
                    return;
                }
            }
            return;
        }
        e.consume();
    }
}
