package org.copydesk.ui.editor;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.util.EnumMap;
import java.util.Map;
import java.util.prefs.Preferences;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Chrome;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.Messages;
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
    static final Map<Verdict, KeyCombination> VERDICT_KEYS = new EnumMap<>(Map.of(
            Verdict.APPROVE, new KeyCodeCombination(KeyCode.DIGIT1, KeyCombination.SHORTCUT_DOWN),
            Verdict.REJECT, new KeyCodeCombination(KeyCode.DIGIT2, KeyCombination.SHORTCUT_DOWN),
            Verdict.SEND_BACK, new KeyCodeCombination(KeyCode.DIGIT3, KeyCombination.SHORTCUT_DOWN),
            Verdict.UNREVIEWABLE, new KeyCodeCombination(KeyCode.DIGIT4, KeyCombination.SHORTCUT_DOWN)));


    private final EditorViewModel model;
    private final Node toolbarExtras;
    private final EditorSettingsMenu settings;
    private final LeaveQuestion leaveQuestion = new LeaveQuestion();
    private final DesktopAttention.Alerts alerts;
    private final ListView<LeaseRow> list = new ListView<>();
    private final TextArea notes = new TextArea();
    private final ToggleGroup verdicts = new ToggleGroup();
    private final Node helpOverlay;

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
        this.helpOverlay = createHelpOverlay();
        createView();
        initListeners();
    }

    private void createView() {
        BorderPane root = new BorderPane();
        root.setTop(createToolbar());
        ReadingLayout panes = new ReadingLayout(createArticleList(), createReader(), createReviewPanel());
        root.setCenter(Chrome.underBanner(panes, createBanner()));
        // notices in their own strip above the status bar: they push the panes up, never cover a control
        root.setBottom(new VBox(NoticeArea.strip(model.notices(), model::dismiss), createStatusBar()));
        getChildren().addAll(root, helpOverlay, leaveQuestion);
        getStyleClass().add("editor-view");
    }

    private Node createToolbar() {
        Label app = new Label(Messages.text("common.appName"));
        app.getStyleClass().addAll(Styles.TITLE_4, "app-name");
        app.setGraphic(new FontIcon(Feather.FILE_TEXT));
        Label who = new Label(model.editor().displayName());
        who.getStyleClass().add(Styles.TEXT_BOLD);
        who.setGraphic(new FontIcon(Feather.USER));
        Label desks = new Label();
        desks.textProperty().bind(model.deskSummaryProperty());
        desks.getStyleClass().add(Styles.TEXT_MUTED);
        desks.setId("desk-summary");

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
        help.setAccessibleText(Messages.text("editor.help.title"));
        help.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        help.setTooltip(new Tooltip(Messages.text("editor.help.tooltip")));
        help.setOnAction(e -> toggleHelp());

        return Chrome.toolbar(new Node[] {app, Chrome.separator(), who, desks}, busy, reload, toolbarExtras, settings, help);
    }

    private Label createBanner() {
        return Chrome.offlineBanner(model.bannerProperty(), model.offlineProperty());
    }

    private Region createArticleList() {
        Label header = new Label(Messages.text("editor.myArticles"));
        header.getStyleClass().add(Styles.TITLE_4);
        Label count = new Label();
        count.getStyleClass().add(Styles.TEXT_MUTED);
        count.textProperty().bind(model.summaryProperty());
        Spacer spacer = new Spacer();
        HBox head = new HBox(8, header, spacer, count);
        head.setAlignment(Pos.BASELINE_LEFT);

        list.setId("articles");
        list.setItems(model.articles());
        list.setCellFactory(v -> new LeaseCell(list, model::deskDisplayName));
        Label empty = new Label();
        empty.setId("empty-state");
        empty.setWrapText(true);
        empty.getStyleClass().addAll(Styles.TEXT_MUTED, "empty-state");
        empty.textProperty().bind(model.emptyTextProperty());
        empty.setGraphic(new FontIcon(Feather.INBOX));
        empty.setContentDisplay(javafx.scene.control.ContentDisplay.TOP);
        list.setPlaceholder(empty);
        VBox.setVgrow(list, Priority.ALWAYS);
        VBox box = new VBox(10, head, createWaitingNudge(), list);
        box.setPadding(new Insets(14));
        return box;
    }

    /** "3 articles waiting on News — F5" with a button, while the editor has room and work waits. */
    private Node createWaitingNudge() {
        Label text = new Label();
        text.setId("waiting");
        text.setWrapText(true);
        text.textProperty().bind(model.waitingProperty());
        text.setGraphic(new FontIcon(Feather.INBOX));
        Button get = new Button(Messages.text("editor.list.getWaiting"));
        get.setId("get-waiting");
        get.getStyleClass().addAll(Styles.SMALL, Styles.ACCENT);
        get.disableProperty().bind(model.canReloadProperty().not());
        get.setOnAction(e -> model.reload());
        get.setMinWidth(Region.USE_PREF_SIZE); // the words wrap, the button stays whole
        text.setMaxWidth(Double.MAX_VALUE);
        text.setMinHeight(Region.USE_PREF_SIZE); // wrapped lines, not "20 or mor…"
        HBox.setHgrow(text, Priority.ALWAYS);
        HBox nudge = new HBox(8, text, get);
        nudge.setAlignment(Pos.CENTER_LEFT);
        nudge.getStyleClass().add("waiting-nudge");
        nudge.visibleProperty().bind(model.waitingProperty().isNotEmpty());
        nudge.managedProperty().bind(nudge.visibleProperty());
        return nudge;
    }

    private Region createReader() {
        Label title = new Label();
        title.setId("reader-title");
        title.setWrapText(true);
        title.getStyleClass().addAll(Styles.TITLE_2, "reader-title");
        title.setMinHeight(Region.USE_PREF_SIZE); // wrapped, never cut short: the article's text gives way
        title.textProperty().bind(model.titleProperty());
        Label byline = new Label();
        byline.getStyleClass().add(Styles.TEXT_ITALIC);
        byline.textProperty().bind(model.bylineProperty());
        Label meta = new Label();
        meta.setId("reader-meta");
        meta.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        meta.textProperty().bind(model.metaProperty());

        TextArea body = new TextArea();
        body.setId("reader-body");
        body.setEditable(false);
        body.setWrapText(true);
        body.getStyleClass().add("reader-body");
        body.textProperty().bind(model.bodyProperty());
        body.styleProperty().bind(Bindings.concat("-fx-font-size: ", model.settings().textSizeProperty(), "px;"));
        body.setFocusTraversable(false);
        RevisionDiffView text = new RevisionDiffView(model.revisions(), body, model.settings().textSizeProperty());
        VBox.setVgrow(text, Priority.ALWAYS);

        ListView<String> history = new ListView<>(model.historyLines());
        history.setId("history");
        Label noHistory = new Label(Messages.text("editor.history.empty"));
        noHistory.getStyleClass().add(Styles.TEXT_MUTED);
        history.setPlaceholder(noHistory);
        history.setPrefHeight(150);
        TitledPane historyPane = new TitledPane(Messages.text("editor.history"), history);
        historyPane.setExpanded(false);

        VBox reader = new VBox(8, title, byline, meta, text, historyPane);
        reader.setPadding(new Insets(18, 22, 14, 22));
        reader.getStyleClass().add("reader");
        Label nothing = new Label(Messages.text("editor.reader.empty"));
        nothing.getStyleClass().add(Styles.TEXT_MUTED);
        StackPane pane = new StackPane(reader, nothing);
        pane.setId("reader");
        reader.visibleProperty().bind(model.selectedProperty().isNotNull());
        nothing.visibleProperty().bind(model.selectedProperty().isNull());
        return pane;
    }

    private Region createReviewPanel() {
        Label header = new Label(Messages.text("editor.review"));
        header.getStyleClass().add(Styles.TITLE_4);
        VBox choices = new VBox(6);
        for (Verdict v : Verdict.values()) {
            ToggleButton b = new ToggleButton(VerdictWords.label(v), new FontIcon(switch (v) {
                case APPROVE -> Feather.CHECK_CIRCLE;
                case REJECT -> Feather.X_CIRCLE;
                case SEND_BACK -> Feather.CORNER_UP_LEFT;
                case UNREVIEWABLE -> Feather.SLASH;
            }));
            b.setId("verdict-" + v.code());
            b.setUserData(v);
            b.setToggleGroup(verdicts);
            b.setMaxWidth(Double.MAX_VALUE);
            b.setAlignment(Pos.CENTER_LEFT);
            b.setTooltip(new Tooltip(Messages.text(v.needsNotes() ? "editor.verdict.tooltipNeedsNote" : "editor.verdict.tooltip",
                    VerdictWords.label(v), VERDICT_KEYS.get(v).getDisplayText())));
            choices.getChildren().add(b);
        }
        notes.setId("notes");
        notes.setWrapText(true);
        notes.setPromptText(Messages.text("editor.notes.prompt"));
        notes.textProperty().bindBidirectional(model.notesProperty());
        notes.styleProperty().bind(Bindings.concat("-fx-font-size: ",
                model.settings().textSizeProperty().subtract(2), "px;"));
        VBox.setVgrow(notes, Priority.ALWAYS);
        Label draft = new Label();
        draft.setId("draft-status");
        draft.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        draft.textProperty().bind(model.draftStatusProperty());

        Button submit = new Button(Messages.text("editor.submit"), new FontIcon(Feather.SEND));
        submit.setId("submit");
        submit.getStyleClass().add(Styles.SUCCESS);
        submit.setMaxWidth(Double.MAX_VALUE);
        submit.setTooltip(new Tooltip(Messages.text("editor.submit.tooltip", SUBMIT.getDisplayText())));
        submit.disableProperty().bind(model.canSubmitProperty().not());
        submit.setOnAction(e -> model.submit());
        Button release = new Button(Messages.text("editor.release"), new FontIcon(Feather.ROTATE_CCW));
        release.setId("release");
        release.getStyleClass().add(Styles.BUTTON_OUTLINED);
        release.setMaxWidth(Double.MAX_VALUE);
        release.setTooltip(new Tooltip(Messages.text("editor.release.tooltip", RELEASE.getDisplayText())));
        release.disableProperty().bind(model.canReleaseProperty().not());
        release.setOnAction(e -> model.releaseSelected());
        HBox.setHgrow(submit, Priority.ALWAYS);
        HBox.setHgrow(release, Priority.ALWAYS);
        HBox buttons = new HBox(8, release, submit);
        // a disabled button shows no tooltip: why Submit cannot be pressed is said under it
        Label why = new Label();
        why.setId("submit-why");
        why.setWrapText(true);
        why.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        why.textProperty().bind(model.whyNoSubmitProperty());
        why.visibleProperty().bind(model.whyNoSubmitProperty().isNotEmpty().and(model.selectedProperty().isNotNull()));
        why.managedProperty().bind(why.visibleProperty());

        VBox panel = new VBox(10, header, choices, new Label(Messages.text("editor.notes")), notes, draft, buttons, why,
                RevisionDiffView.refusalLine(model.revisions()));
        panel.setPadding(new Insets(14));
        panel.disableProperty().bind(model.selectedProperty().isNull());
        panel.getStyleClass().add("review-panel");
        return panel;
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

    private Node createHelpOverlay() {
        VBox card = new VBox(8);
        card.getStyleClass().add("help-card");
        card.setMaxSize(440, Region.USE_PREF_SIZE);
        Label title = new Label(Messages.text("editor.help.title"));
        title.getStyleClass().add(Styles.TITLE_3);
        card.getChildren().add(title);
        addShortcut(card, RELOAD, Messages.text("editor.shortcut.reload"));
        addShortcut(card, NEXT, Messages.text("editor.shortcut.next"));
        addShortcut(card, PREVIOUS, Messages.text("editor.shortcut.previous"));
        for (Verdict v : Verdict.values()) {
            addShortcut(card, VERDICT_KEYS.get(v), VerdictWords.label(v));
        }
        addShortcut(card, SUBMIT, Messages.text("editor.shortcut.submit"));
        addShortcut(card, RELEASE, Messages.text("editor.shortcut.release"));
        addShortcut(card, EditorSettingsMenu.LARGER, Messages.text("editor.shortcut.larger"));
        addShortcut(card, EditorSettingsMenu.SMALLER, Messages.text("editor.shortcut.smaller"));
        addShortcut(card, EditorSettingsMenu.NORMAL, Messages.text("editor.shortcut.normal"));
        addShortcut(card, HELP, Messages.text("editor.shortcut.help"));
        StackPane overlay = new StackPane(card);
        overlay.setId("help-overlay");
        overlay.getStyleClass().add("help-overlay");
        overlay.setVisible(false);
        overlay.setOnMouseClicked(e -> overlay.setVisible(false));
        return overlay;
    }

    private static void addShortcut(VBox card, KeyCombination keys, String what) {
        Label k = new Label(keys.getDisplayText());
        k.getStyleClass().add("key");
        k.setMinWidth(130);
        card.getChildren().add(new HBox(12, k, new Label(what)));
    }

    private void toggleHelp() {
        helpOverlay.setVisible(!helpOverlay.isVisible());
    }

    /**
     * Before the window closes or the editor signs out: with articles held, asks "Give back your 4
     * articles?" (giving back is the default) and leaves when answered; otherwise leaves at once.
     * Offline nothing can be given back, and nothing is asked.
     */
    public void beforeLeaving(Runnable leave) {
        int held = model.heldCount();
        if (held == 0 || model.offlineProperty().get()) {
            leave.run();
            return;
        }
        leaveQuestion.ask(held, hide -> model.giveBackAll(() -> {
            hide.run();
            leave.run();
        }), leave);
    }

    /** True while this window is the one in front (has the focus). */
    private boolean inFront() {
        var window = getScene() == null ? null : getScene().getWindow();
        return window == null || window.isFocused();
    }

    private void initListeners() {
        model.onAttention(DesktopAttention.whileInBackground(this::inFront, alerts));
        model.inFrontWhen(this::inFront);
        list.getSelectionModel().selectedItemProperty().addListener((o, old, row) -> {
            if (row != null && row != model.selectedProperty().get()) {
                model.selectedProperty().set(row);
            }
        });
        model.selectedProperty().addListener((o, old, row) -> {
            if (row == null) {
                list.getSelectionModel().clearSelection();
            } else if (list.getSelectionModel().getSelectedItem() != row) {
                list.getSelectionModel().select(row);
                list.scrollTo(row);
            }
        });
        model.articles().addListener((ListChangeListener<LeaseRow>) c -> {
            LeaseRow row = model.selectedProperty().get();
            if (row != null && list.getSelectionModel().getSelectedItem() != row) {
                list.getSelectionModel().select(row);
            }
        });
        verdicts.selectedToggleProperty().addListener((o, old, t) -> model.verdictProperty().set(t == null ? null : (Verdict) t.getUserData()));
        model.verdictProperty().addListener((o, old, v) -> selectToggle(v));
        selectToggle(model.verdictProperty().get());

        addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
        addEventFilter(KeyEvent.KEY_TYPED, e -> model.activity());
        addEventFilter(MouseEvent.MOUSE_PRESSED, e -> model.activity());
    }

    private void selectToggle(Verdict v) {
        verdicts.getToggles().stream().filter(t -> t.getUserData() == v).findFirst()
                .ifPresentOrElse(verdicts::selectToggle, () -> verdicts.selectToggle(null));
    }

    private void onKey(KeyEvent e) {
        model.activity();
        if (leaveQuestion.isVisible()) {
            return; // the question takes the keys (Enter gives back, Esc cancels)
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
            model.releaseSelected();
        } else if (HELP.match(e)) {
            toggleHelp();
        } else if (e.getCode() == KeyCode.ESCAPE && helpOverlay.isVisible()) {
            helpOverlay.setVisible(false);
        } else {
            for (Map.Entry<Verdict, KeyCombination> k : VERDICT_KEYS.entrySet()) {
                if (k.getValue().match(e) && model.selectedProperty().get() != null) {
                    model.verdictProperty().set(k.getKey());
                    notes.requestFocus();
                    e.consume();
                    return;
                }
            }
            return;
        }
        e.consume();
    }
}
