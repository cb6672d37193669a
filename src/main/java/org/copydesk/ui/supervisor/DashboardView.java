package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import java.io.File;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.copydesk.ui.common.Chrome;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.NoticeArea;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The supervisor's dashboard: the toolbar, the import's progress, the connection banner, the
 * notices and one page per tab ({@link HoldersPage}, {@link QueuePage}, {@link StagesPage}, {@link DeadlinesPage},
 * {@link HealthPage}, {@link EditorsPage},
 * {@link AuditPage}, {@link QuarantinePage}, {@link RelayPage}). Binds to {@link DashboardViewModel} and calls
 * nothing else; its stylesheet, {@code dashboard.css}, lies beside it.
 *
 * <p>Notices take their own strip along the bottom edge, so they never cover a control.
 */
public final class DashboardView extends StackPane {

    private final DashboardViewModel model;
    private final TabPane tabs = new TabPane();

    public DashboardView(DashboardViewModel model) {
        this(model, DesktopAttention.NONE);
    }

    /** @param alerts where a new deadline at risk is told while the dashboard is not in front (the desktop) */
    public DashboardView(DashboardViewModel model, DesktopAttention.Alerts alerts) {
        this.model = model;
        createView();
        initListeners();
        model.deadlines().onAttention(DesktopAttention.whileInBackground(this::inFront, alerts));
    }

    private boolean inFront() {
        return getScene() != null && getScene().getWindow() != null && getScene().getWindow().isFocused();
    }

    private void createView() {
        BorderPane root = new BorderPane();
        root.setTop(new VBox(createToolbar(), new ImportStrip(model.imports())));
        tabs.setId("dashboard-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.setMinHeight(0); // a page taller than the window is cut at the notices, never drawn over them
        tabs.getTabs().addAll(
                tab(DashboardTab.HOLDERS, Feather.USERS, new HoldersPage(model.holders(), model.leaseActions())),
                tab(DashboardTab.QUEUE, Feather.LAYERS, new QueuePage(model.queue(), new QueueActionsPanel(model.queueActions()))),
                tab(DashboardTab.STAGES, Feather.COLUMNS, new StagesPage(model.stages(), model.stageSetup())),
                tab(DashboardTab.DEADLINES, Feather.CLOCK, new DeadlinesPage(model.deadlines(), model.deadlineActions())),
                tab(DashboardTab.HEALTH, Feather.ACTIVITY, new HealthPage(model.health())),
                tab(DashboardTab.EDITORS, Feather.USER_CHECK, new EditorsPage(model.health())),
                tab(DashboardTab.AUDIT, Feather.LIST, new AuditPage(model.audit())),
                tab(DashboardTab.QUARANTINE, Feather.ARCHIVE, new QuarantinePage(model.quarantine())),
                tab(DashboardTab.RELAY, Feather.SEND, new RelayPage(model.relay())));
        root.setCenter(tabs);
        root.setBottom(NoticeArea.strip(model.notices(), model::dismiss));
        getChildren().add(root);
        getStyleClass().add("dashboard-view");
        getStylesheets().add(DashboardView.class.getResource("dashboard.css").toExternalForm());
    }

    /**
     * A tab whose page has the connection banner laid over its top: over the page, not over the
     * whole tab pane, so the tabs stay in reach while the database is away (the supervisor can
     * still look at the other pages as last seen).
     */
    private Tab tab(DashboardTab which, Feather icon, Node content) {
        Tab t = new Tab(which.title(), Chrome.underBanner(content, Chrome.offlineBanner(model.bannerProperty(), model.offlineProperty())));
        t.setId("tab-" + which.fileStem());
        t.setGraphic(new FontIcon(icon));
        t.setUserData(which);
        return t;
    }

    private Node createToolbar() {
        Label app = new Label(Messages.text("dashboard.appName"));
        app.getStyleClass().addAll(Styles.TITLE_4, "app-name");
        app.setGraphic(new FontIcon(Feather.MONITOR));
        Label who = new Label(model.supervisor().displayName());
        who.getStyleClass().add(Styles.TEXT_BOLD);
        who.setGraphic(new FontIcon(Feather.USER));
        Label cost = new Label();
        cost.setId("refresh-cost");
        cost.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        cost.textProperty().bind(Bindings.createStringBinding(() -> {
            HoldersViewModel.RefreshCost c = model.holders().lastRefreshProperty().get();
            return c == null ? "" : Messages.text("dashboard.refreshCost",
                    c.rowsChanged(), c.databaseNanos() / 1_000_000, c.applyNanos() / 1e6);
        }, model.holders().lastRefreshProperty()));
        Button export = new Button(Messages.text("dashboard.export"), new FontIcon(Feather.DOWNLOAD));
        export.setId("export-csv");
        export.setTooltip(new Tooltip(Messages.text("dashboard.export.tooltip")));
        export.setOnAction(e -> exportCurrentTab());
        Button refresh = new Button(null, new FontIcon(Feather.REFRESH_CW));
        refresh.setAccessibleText(Messages.text("dashboard.refresh.accessible"));
        refresh.setId("dashboard-refresh");
        refresh.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        refresh.setTooltip(new Tooltip(Messages.text("dashboard.refresh.tooltip")));
        refresh.setOnAction(e -> model.reloadEverything());
        return Chrome.toolbar(new Node[] {app, Chrome.separator(), who}, cost, ImportStrip.button(model.imports()), export, refresh);
    }

    private void exportCurrentTab() {
        DashboardTab which = (DashboardTab) tabs.getSelectionModel().getSelectedItem().getUserData();
        FileChooser chooser = new FileChooser();
        chooser.setTitle(Messages.text("dashboard.export.title", which.title()));
        chooser.setInitialFileName("copydesk-" + which.fileStem() + ".csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(Messages.text("dashboard.export.csvFiles"), "*.csv"));
        File file = chooser.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (file != null) {
            model.export(which, file.toPath());
        }
    }

    private void initListeners() {
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> model.opened((DashboardTab) t.getUserData()));
    }

    /** For tests and screenshots: shows the given tab. */
    public void show(DashboardTab which) {
        tabs.getTabs().stream().filter(t -> t.getUserData() == which).findFirst().ifPresent(t -> tabs.getSelectionModel().select(t));
    }
}
