package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.css.PseudoClass;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Separator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.copydesk.review.ArticleQuarantine;
import org.copydesk.review.AuditLog;
import org.copydesk.review.Editor;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ImportRejects;
import org.copydesk.ui.common.Chrome;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.NoticeArea;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The supervisor's dashboard: who holds what (live), queue health with charts, editors, the audit
 * and the quarantine, one tab each. Binds to {@link DashboardViewModel} and calls nothing else.
 *
 * <p>The holders table can hold ten thousand rows: it is virtualised, its rows are replaced only
 * when the server says they changed, and the countdown cells redraw from one clock property, so a
 * tick costs the visible cells, not the table.
 */
public final class DashboardView extends StackPane {

    private static final PseudoClass EXPIRING = PseudoClass.getPseudoClass("expiring");
    private static final Duration EXPIRING_WITHIN = Duration.ofMinutes(2);

    private final DashboardViewModel model;
    private final TabPane tabs = new TabPane();
    private final TableView<HolderRow> holders = new TableView<>();
    private final TableView<AuditLog.Entry> audit = new TableView<>();
    private final TableView<ArticleQuarantine.Entry> quarantined = new TableView<>();
    private final TableView<ImportRejects.Reject> rejects = new TableView<>();
    private final StackedBarChart<String, Number> finishedChart = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());
    private final StackedBarChart<String, Number> expiredChart = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());

    public DashboardView(DashboardViewModel model) {
        this.model = model;
        createView();
        initListeners();
    }

    private void createView() {
        BorderPane root = new BorderPane();
        root.setTop(new VBox(createToolbar(), createImportStrip()));
        tabs.setId("dashboard-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getTabs().addAll(
                tab(DashboardTab.HOLDERS, Feather.USERS, createHoldersPage()),
                tab(DashboardTab.HEALTH, Feather.ACTIVITY, createHealthPage()),
                tab(DashboardTab.EDITORS, Feather.USER_CHECK, createEditorsPage()),
                tab(DashboardTab.AUDIT, Feather.LIST, createAuditPage()),
                tab(DashboardTab.QUARANTINE, Feather.ARCHIVE, createQuarantinePage()));
        root.setCenter(Chrome.underBanner(tabs, createBanner()));
        NoticeArea notices = new NoticeArea(model.notices(), model::dismiss);
        StackPane.setAlignment(notices, Pos.BOTTOM_RIGHT);
        StackPane.setMargin(notices, new Insets(0, 16, 16, 0));
        getChildren().addAll(root, notices);
        getStyleClass().add("dashboard-view");
    }

    private static Tab tab(DashboardTab which, Feather icon, Node content) {
        Tab t = new Tab(which.title(), content);
        t.setId("tab-" + which.fileStem());
        t.setGraphic(new FontIcon(icon));
        t.setUserData(which);
        return t;
    }

    private Node createToolbar() {
        Label app = new Label("Copydesk supervisor");
        app.getStyleClass().addAll(Styles.TITLE_4, "app-name");
        app.setGraphic(new FontIcon(Feather.MONITOR));
        Label who = new Label(model.supervisor().displayName());
        who.getStyleClass().add(Styles.TEXT_BOLD);
        who.setGraphic(new FontIcon(Feather.USER));
        Label cost = new Label();
        cost.setId("refresh-cost");
        cost.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        cost.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            DashboardViewModel.RefreshCost c = model.lastRefreshProperty().get();
            return c == null ? "" : String.format("Last refresh: %d changed, %d ms database, %.1f ms screen",
                    c.rowsChanged(), c.databaseNanos() / 1_000_000, c.applyNanos() / 1e6);
        }, model.lastRefreshProperty()));
        Button export = new Button("Export CSV", new FontIcon(Feather.DOWNLOAD));
        export.setId("export-csv");
        export.setTooltip(new Tooltip("Save the table on this tab as a CSV file"));
        export.setOnAction(e -> exportCurrentTab());
        Button refresh = new Button(null, new FontIcon(Feather.REFRESH_CW));
        refresh.setAccessibleText("Reload everything now");
        refresh.setId("dashboard-refresh");
        refresh.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        refresh.setTooltip(new Tooltip("Reload everything now (the tables also refresh by themselves)"));
        refresh.setOnAction(e -> {
            model.reloadAll();
            model.refreshStats();
            model.searchAudit();
            model.refreshQuarantine();
        });
        Button importButton = new Button("Import\u2026", new FontIcon(Feather.UPLOAD));
        importButton.setId("import");
        importButton.getStyleClass().add(Styles.BUTTON_OUTLINED);
        importButton.setTooltip(new Tooltip("Import articles from JSON or CSV; bad rows are kept aside in Quarantine"));
        importButton.disableProperty().bind(model.imports().importingProperty());
        importButton.setOnAction(e -> {
            javafx.stage.FileChooser chooser = new javafx.stage.FileChooser();
            chooser.setTitle("Import articles");
            chooser.getExtensionFilters().add(new javafx.stage.FileChooser.ExtensionFilter("JSON or CSV",
                    "*.json", "*.ndjson", "*.jsonl", "*.csv"));
            java.io.File file = chooser.showOpenDialog(getScene().getWindow());
            if (file != null) {
                model.imports().importFile(file.toPath());
            }
        });
        return Chrome.toolbar(new Node[] {app, Chrome.separator(), who}, cost, importButton, export, refresh);
    }

    /** Progress of a running import, under the toolbar; stays with the last summary until the next one. */
    private Node createImportStrip() {
        javafx.scene.control.ProgressBar bar = new javafx.scene.control.ProgressBar();
        bar.setId("import-progress");
        bar.progressProperty().bind(model.imports().progressProperty());
        bar.setPrefWidth(220);
        Label status = new Label();
        status.setId("import-status");
        status.textProperty().bind(model.imports().statusProperty());
        Button cancel = new Button("Stop");
        cancel.getStyleClass().add(Styles.SMALL);
        cancel.visibleProperty().bind(model.imports().importingProperty());
        cancel.setOnAction(e -> model.imports().cancel());
        HBox strip = new HBox(10, bar, status, cancel);
        strip.setAlignment(Pos.CENTER_LEFT);
        strip.setPadding(new Insets(6, 16, 6, 16));
        strip.getStyleClass().add("import-strip");
        strip.visibleProperty().bind(model.imports().statusProperty().isNotEmpty());
        strip.managedProperty().bind(strip.visibleProperty());
        return strip;
    }

    private Label createBanner() {
        return Chrome.offlineBanner(model.bannerProperty(), model.offlineProperty());
    }

    // --- who holds what -----------------------------------------------------------------------------

    private Node createHoldersPage() {
        TextField search = new TextField();
        search.setId("holder-search");
        search.setPromptText("Search editor, article, desk or number");
        search.setPrefColumnCount(28);
        search.textProperty().bindBidirectional(model.searchProperty());
        ChoiceBox<Grouping> grouping = new ChoiceBox<>();
        grouping.setId("grouping");
        grouping.getItems().setAll(Grouping.values());
        grouping.valueProperty().bindBidirectional(model.groupingProperty());
        Label summary = new Label();
        summary.setId("holders-summary");
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.textProperty().bind(model.holdersSummaryProperty());
        Label order = new Label();
        order.setId("holders-order");
        order.textProperty().bind(model.sortDescriptionProperty());
        order.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        order.setGraphic(new FontIcon(Feather.ARROW_DOWN));
        order.setTooltip(new Tooltip("Click a column header to sort by it; click again to reverse."));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox filters = new HBox(10, new FontIcon(Feather.SEARCH), search, grouping, spacer, order, summary);
        filters.setAlignment(Pos.CENTER_LEFT);

        ListView<DashboardViewModel.GroupSummary> groups = new ListView<>(model.groups());
        groups.setId("groups");
        groups.setPlaceholder(muted("No lease to group."));
        groups.setPrefWidth(210);
        groups.visibleProperty().bind(model.groupingProperty().isNotEqualTo(Grouping.NONE));
        groups.managedProperty().bind(groups.visibleProperty());
        groups.getSelectionModel().selectedItemProperty().addListener((o, a, g) -> {
            if (g != model.groupFilterProperty().get()) {
                model.groupFilterProperty().set(g);
            }
        });
        model.groupFilterProperty().addListener((o, a, g) -> {
            if (g == null) {
                groups.getSelectionModel().clearSelection();
            } else if (groups.getSelectionModel().getSelectedItem() != g) {
                groups.getSelectionModel().select(g);
            }
        });

        holders.setId("holders");
        holders.setItems(model.holders());
        holders.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label empty = new Label();
        empty.setId("holders-empty");
        empty.setWrapText(true);
        empty.textProperty().bind(model.holdersEmptyTextProperty());
        empty.getStyleClass().addAll(Styles.TEXT_MUTED, "empty-state");
        holders.setPlaceholder(empty);
        Map<TableColumn<HolderRow, ?>, HolderSort> sortKeys = new java.util.LinkedHashMap<>();
        sortKeys.put(timeLeftColumn(), HolderSort.TIME_LEFT);
        sortKeys.put(textColumn("Editor", 150, HolderRow::editorName), HolderSort.EDITOR);
        sortKeys.put(presenceColumn(), HolderSort.HOLDER);
        sortKeys.put(textColumn("Article", 380, r -> r.title()), HolderSort.ARTICLE);
        sortKeys.put(textColumn("Desk", 90, r -> model.deskName(r.desk())), HolderSort.DESK);
        sortKeys.put(textColumn("Claimed", 90, r -> r.claimedAt() == null ? "" : Formats.localClock(r.claimedAt(), model.zone())),
                HolderSort.CLAIMED);
        sortKeys.put(textColumn("Renewals", 86, r -> Integer.toString(r.renewals())), HolderSort.RENEWALS);
        sortKeys.put(textColumn("No.", 60, r -> Long.toString(r.id())), HolderSort.NUMBER);
        holders.getColumns().setAll(sortKeys.keySet());
        sortKeys.forEach((c, key) -> {
            c.setId("col-" + key.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            if (!"Article".equals(c.getText())) {
                c.setMinWidth(c.getPrefWidth()); // the article's title gives way first when space is short
            }
        });
        // The model sorts (inside the grouping, merging each refresh into a sorted array); the
        // header only says which key and direction. No column chosen: time left, soonest first.
        holders.setSortPolicy(table -> {
            List<TableColumn<HolderRow, ?>> chosen = table.getSortOrder();
            TableColumn<HolderRow, ?> first = chosen.isEmpty() ? null : chosen.get(0);
            model.sortBy(first == null ? HolderSort.TIME_LEFT : sortKeys.get(first),
                    first == null || first.getSortType() == TableColumn.SortType.ASCENDING);
            return true;
        });
        HBox.setHgrow(holders, Priority.ALWAYS);

        HBox body = new HBox(10, groups, holders, createActionPanel());
        VBox.setVgrow(body, Priority.ALWAYS);
        VBox page = new VBox(10, filters, body);
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    private TableColumn<HolderRow, HolderRow> timeLeftColumn() {
        TableColumn<HolderRow, HolderRow> c = new TableColumn<>("Time left");
        c.setId("col-time-left");
        c.setPrefWidth(90);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new ClockCell() {
            @Override
            void render(HolderRow row, long now) {
                Duration left = row.timeLeft(now);
                setText(Formats.countdown(left));
                pseudoClassStateChanged(EXPIRING, left.compareTo(EXPIRING_WITHIN) <= 0);
            }
        });
        c.getStyleClass().add("countdown-column");
        return c;
    }

    private TableColumn<HolderRow, HolderRow> presenceColumn() {
        TableColumn<HolderRow, HolderRow> c = new TableColumn<>("Holder");
        c.setPrefWidth(80);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new ClockCell() {
            private final FontIcon dot = new FontIcon(Feather.CIRCLE);

            @Override
            void render(HolderRow row, long now) {
                Presence p = model.presenceOf(row);
                setText(p.label());
                dot.getStyleClass().setAll("ikonli-font-icon", "presence-" + p.name().toLowerCase(java.util.Locale.ROOT));
                setGraphic(dot);
            }
        });
        return c;
    }

    /** A cell that redraws on every tick of the model's clock; only the visible cells exist. */
    private abstract class ClockCell extends TableCell<HolderRow, HolderRow> {
        ClockCell() {
            model.clockProperty().addListener((o, a, now) -> {
                if (getItem() != null && !isEmpty()) {
                    render(getItem(), now.longValue());
                }
            });
        }

        abstract void render(HolderRow row, long now);

        @Override
        protected void updateItem(HolderRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setText(null);
                setGraphic(null);
                pseudoClassStateChanged(EXPIRING, false);
            } else {
                render(row, model.clockProperty().get());
            }
        }
    }

    private Node createActionPanel() {
        Label header = new Label("Selected lease");
        header.getStyleClass().add(Styles.TITLE_4);
        Label what = new Label();
        what.setId("selected-lease");
        what.setWrapText(true);
        what.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            HolderRow r = model.selectedProperty().get();
            return r == null ? "Select a row to act on it." : "\u201c" + r.title() + "\u201d\nheld by " + r.editorName();
        }, model.selectedProperty()));

        TextField reason = new TextField();
        reason.setId("reason");
        reason.setPromptText("Reason (the editor sees it)");
        reason.textProperty().bindBidirectional(model.reasonProperty());
        Button release = new Button("Force release", new FontIcon(Feather.X_OCTAGON));
        release.setId("force-release");
        release.getStyleClass().add(Styles.DANGER);
        release.setMaxWidth(Double.MAX_VALUE);
        release.setTooltip(new Tooltip("End the lease now: the article goes back to the queue and the editor is told why"));
        release.disableProperty().bind(model.canForceReleaseProperty().not());
        release.setOnAction(e -> model.forceReleaseSelected());

        ComboBox<Editor> to = new ComboBox<>(model.reassignCandidates());
        to.setId("reassign-to");
        to.setPlaceholder(muted("Nobody else works on this article's desk."));
        to.setPromptText("Reassign to\u2026");
        to.setMaxWidth(Double.MAX_VALUE);
        to.valueProperty().bindBidirectional(model.reassignToProperty());
        to.setCellFactory(v -> editorCell(null));
        // JavaFX drops the prompt of a combo box with its own button cell once its value was cleared
        to.setButtonCell(editorCell(to.getPromptText()));
        Button reassign = new Button("Reassign", new FontIcon(Feather.SHUFFLE));
        reassign.setId("reassign");
        reassign.setMaxWidth(Double.MAX_VALUE);
        reassign.setTooltip(new Tooltip("Give the article to this editor under a new lease (only editors of its desk)"));
        reassign.disableProperty().bind(model.canReassignProperty().not());
        reassign.setOnAction(e -> model.reassignSelected());

        Label warning = new Label();
        warning.setId("capacity-warning");
        warning.setWrapText(true);
        warning.setGraphic(new FontIcon(Feather.ALERT_TRIANGLE));
        warning.textProperty().bind(model.capacityWarningProperty());
        Button anyway = new Button("Reassign anyway");
        anyway.setId("reassign-anyway");
        anyway.getStyleClass().addAll(Styles.SMALL, Styles.WARNING);
        anyway.setOnAction(e -> model.confirmOverCapacity());
        Button cancel = new Button("Cancel");
        cancel.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        cancel.setOnAction(e -> model.cancelOverCapacity());
        VBox warningBox = new VBox(6, warning, new HBox(6, anyway, cancel));
        warningBox.getStyleClass().add("capacity-warning");
        warningBox.visibleProperty().bind(model.capacityWarningProperty().isNotEmpty());
        warningBox.managedProperty().bind(warningBox.visibleProperty());

        Button extend15 = new Button("+15 min", new FontIcon(Feather.CLOCK));
        extend15.setId("extend-15");
        extend15.setOnAction(e -> model.extendSelected(Duration.ofMinutes(15)));
        extend15.disableProperty().bind(model.canActProperty().not());
        Button extend60 = new Button("+1 h");
        extend60.setId("extend-60");
        extend60.setOnAction(e -> model.extendSelected(Duration.ofHours(1)));
        extend60.disableProperty().bind(model.canActProperty().not());
        Label extendNote = new Label("Extending never passes the desk's maximum hold.");
        extendNote.setWrapText(true);
        extendNote.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);

        VBox panel = new VBox(8, header, what, new Separator(), new Label("Take it back"), reason, release, new Separator(),
                new Label("Give it to someone else"), to, reassign, warningBox, new Separator(), new Label("Give more time"),
                new HBox(6, extend15, extend60), extendNote);
        panel.setId("lease-actions");
        panel.setPadding(new Insets(12));
        panel.setPrefWidth(260);
        panel.setMinWidth(240);
        panel.getStyleClass().add("review-panel");
        return panel;
    }

    private static ListCell<Editor> editorCell(String whenEmpty) {
        return new ListCell<>() {
            @Override
            protected void updateItem(Editor e, boolean empty) {
                super.updateItem(e, empty);
                setText(empty || e == null ? whenEmpty : e.displayName() + " (" + e.id() + ")");
            }
        };
    }

    // --- queue health -------------------------------------------------------------------------------

    private Node createHealthPage() {
        TableView<DashboardViewModel.DeskRow> desks = new TableView<>(model.deskRows());
        desks.setId("desk-health");
        desks.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        desks.getColumns().setAll(List.of(
                textColumn("Desk", 140, DashboardViewModel.DeskRow::name),
                numberColumn("Waiting now", DashboardViewModel.DeskRow::waitingNow),
                numberColumn("Scheduled", DashboardViewModel.DeskRow::scheduled),
                numberColumn("In review", DashboardViewModel.DeskRow::inReview),
                numberColumn("Sent back", DashboardViewModel.DeskRow::sentBack),
                numberColumn("Quarantined", DashboardViewModel.DeskRow::quarantined),
                numberColumn("Finished today", DashboardViewModel.DeskRow::finishedToday),
                textColumn("Oldest waiting", 120, DashboardViewModel.DeskRow::oldestWaiting)));
        desks.setPlaceholder(muted("No desk yet. Add one from the command line: copydesk desks add ID NAME."));
        desks.setPrefHeight(236);
        desks.setMinHeight(236);

        finishedChart.setId("finished-chart");
        finishedChart.setTitle("Reviews finished per hour, last 24 h");
        expiredChart.setId("expired-chart");
        expiredChart.setTitle("Leases that ran out per hour, last 24 h");
        for (XYChart<String, Number> chart : List.<XYChart<String, Number>>of(finishedChart, expiredChart)) {
            chart.setAnimated(false);
            chart.setLegendSide(Side.BOTTOM);
            ((CategoryAxis) chart.getXAxis()).setTickLabelRotation(-90);
            ((NumberAxis) chart.getYAxis()).setMinorTickVisible(false);
            ((NumberAxis) chart.getYAxis()).setForceZeroInRange(true);
            // counts: label whole numbers only (auto-ranging picks quarter steps for small counts)
            ((NumberAxis) chart.getYAxis()).setTickLabelFormatter(new javafx.util.StringConverter<>() {
                @Override
                public String toString(Number n) {
                    return n.doubleValue() == Math.rint(n.doubleValue()) ? Long.toString(n.longValue()) : "";
                }

                @Override
                public Number fromString(String text) {
                    return Double.valueOf(text);
                }
            });
            HBox.setHgrow(chart, Priority.ALWAYS);
        }
        expiredChart.setCategoryGap(4);
        finishedChart.setCategoryGap(4);
        HBox charts = new HBox(12, finishedChart, expiredChart);
        VBox.setVgrow(charts, Priority.ALWAYS);
        Label note = new Label("Many expired leases mean overloaded editors or leases too short for the desk's articles.");
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        VBox page = new VBox(10, desks, charts, note);
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    private static void fill(XYChart<String, Number> chart, DashboardViewModel.HourlyChart data) {
        chart.getData().clear();
        ((CategoryAxis) chart.getXAxis()).setCategories(javafx.collections.FXCollections.observableArrayList(data.hours()));
        for (Map.Entry<String, List<Integer>> s : data.series().entrySet()) {
            XYChart.Series<String, Number> series = new XYChart.Series<>();
            series.setName(s.getKey());
            for (int i = 0; i < data.hours().size(); i++) {
                series.getData().add(new XYChart.Data<>(data.hours().get(i), s.getValue().get(i)));
            }
            chart.getData().add(series);
        }
    }

    // --- editors ------------------------------------------------------------------------------------

    private Node createEditorsPage() {
        TableView<DashboardViewModel.EditorRow> people = new TableView<>(model.editorRows());
        people.setId("editors");
        people.setPlaceholder(muted("Nobody is set up yet. Add people from the command line: copydesk editors add NAME --role editor."));
        people.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<DashboardViewModel.EditorRow, DashboardViewModel.EditorRow> presence = new TableColumn<>("Status");
        presence.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        presence.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(DashboardViewModel.EditorRow e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                FontIcon dot = new FontIcon(Feather.CIRCLE);
                dot.getStyleClass().add("presence-" + e.presence().name().toLowerCase(java.util.Locale.ROOT));
                setGraphic(dot);
                setText(e.presence().label());
            }
        });
        presence.setPrefWidth(100);
        TableColumn<DashboardViewModel.EditorRow, DashboardViewModel.EditorRow> load = new TableColumn<>("Load");
        load.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        load.setCellFactory(col -> new TableCell<>() {
            private final ProgressBar bar = new ProgressBar();
            private final Label text = new Label();
            private final HBox box = new HBox(8, bar, text);

            {
                bar.setPrefWidth(120);
                box.setAlignment(Pos.CENTER_LEFT);
            }

            @Override
            protected void updateItem(DashboardViewModel.EditorRow e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setGraphic(null);
                    return;
                }
                bar.setProgress(e.capacity() == 0 ? 0 : Math.min(1.0, (double) e.held() / e.capacity()));
                bar.pseudoClassStateChanged(EXPIRING, e.held() > e.capacity());
                text.setText(e.load());
                setGraphic(box);
            }
        });
        load.setPrefWidth(200);
        people.getColumns().setAll(List.of(
                textColumn("Editor", 180, DashboardViewModel.EditorRow::name),
                textColumn("Role", 90, DashboardViewModel.EditorRow::role),
                presence,
                textColumn("Last seen", 110, DashboardViewModel.EditorRow::lastSeen),
                load,
                numberColumn("Finished today", DashboardViewModel.EditorRow::finishedToday)));
        Label note = new Label("Active: the editor's client sent a heartbeat in the last 3 minutes; idle: in the last 30; "
                + "offline: longer ago or never.");
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        VBox.setVgrow(people, Priority.ALWAYS);
        VBox page = new VBox(10, people, note);
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    // --- audit --------------------------------------------------------------------------------------

    private Node createAuditPage() {
        TextField editor = new TextField();
        editor.setId("audit-editor");
        editor.setPromptText("Editor id (actor or holder)");
        editor.setPrefColumnCount(16);
        editor.textProperty().bindBidirectional(model.auditEditorProperty());
        TextField article = new TextField();
        article.setId("audit-article");
        article.setPromptText("Article no.");
        article.setPrefColumnCount(8);
        article.textProperty().bindBidirectional(model.auditArticleProperty());
        ComboBox<String> action = new ComboBox<>();
        action.setId("audit-action");
        action.getItems().add(null);
        action.getItems().addAll(model.auditActions());
        action.setPromptText("Any action");
        action.setButtonCell(actionCell());
        action.setCellFactory(v -> actionCell());
        action.valueProperty().bindBidirectional(model.auditActionProperty());
        ChoiceBox<DashboardViewModel.AuditRange> range = new ChoiceBox<>();
        range.setId("audit-range");
        range.getItems().setAll(DashboardViewModel.AuditRange.values());
        range.valueProperty().bindBidirectional(model.auditRangeProperty());
        Button search = new Button("Search", new FontIcon(Feather.SEARCH));
        search.setId("audit-search");
        search.setDefaultButton(false);
        search.setOnAction(e -> model.searchAudit());
        editor.setOnAction(e -> model.searchAudit());
        article.setOnAction(e -> model.searchAudit());
        Label summary = new Label();
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.textProperty().bind(model.auditSummaryProperty());
        HBox filters = new HBox(10, editor, article, action, range, search, summary);
        filters.setAlignment(Pos.CENTER_LEFT);

        audit.setId("audit");
        audit.setItems(model.auditEntries());
        audit.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        audit.getColumns().setAll(List.of(
                textColumn("When", 110, e -> Formats.localDayClock(e.at(), model.zone())),
                textColumn("Article", 70, e -> e.articleId() == null ? "" : e.articleId().toString()),
                textColumn("Action", 100, e -> e.action().replace('_', ' ')),
                textColumn("By", 90, AuditLog.Entry::actor),
                textColumn("Holder", 150, e -> owners(e.oldOwner(), e.newOwner())),
                textColumn("Detail", 400, e -> e.detail() == null ? "" : e.detail())));
        audit.setPlaceholder(muted("No event matches these filters. Widen the time range, or clear the editor, article or action."));
        audit.getSelectionModel().selectedItemProperty().addListener((o, a, e) -> model.showHistory(e));

        Label historyTitle = new Label();
        historyTitle.setId("history-title");
        historyTitle.getStyleClass().add(Styles.TEXT_BOLD);
        historyTitle.textProperty().bind(model.historyTitleProperty());
        TableView<HistoryEntry> history = new TableView<>(model.articleHistory());
        history.setId("article-history");
        history.setPlaceholder(muted("Select an event above to see everything that happened to its article."));
        history.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        history.getColumns().setAll(List.of(
                textColumn("When", 110, h -> Formats.localDayClock(h.at(), model.zone())),
                textColumn("Action", 100, h -> h.action().replace('_', ' ')),
                textColumn("By", 90, HistoryEntry::actor),
                textColumn("Holder", 150, h -> owners(h.oldOwner(), h.newOwner())),
                textColumn("Detail", 400, h -> h.detail() == null ? "" : h.detail())));
        VBox.setVgrow(history, Priority.ALWAYS);
        VBox historyBox = new VBox(6, historyTitle, history);
        SplitPane split = new SplitPane(audit, historyBox);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.6);
        VBox.setVgrow(split, Priority.ALWAYS);
        VBox page = new VBox(10, filters, split);
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    private static ListCell<String> actionCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String a, boolean empty) {
                super.updateItem(a, empty);
                setText(empty ? null : a == null ? "Any action" : a.replace('_', ' '));
            }
        };
    }

    private static String owners(String oldOwner, String newOwner) {
        if (oldOwner == null && newOwner == null) {
            return "";
        }
        if (oldOwner != null && oldOwner.equals(newOwner)) {
            return oldOwner;
        }
        return (oldOwner == null ? "\u2014" : oldOwner) + " \u2192 " + (newOwner == null ? "\u2014" : newOwner);
    }

    // --- quarantine ---------------------------------------------------------------------------------

    private Node createQuarantinePage() {
        quarantined.setId("quarantined");
        quarantined.setItems(model.quarantined());
        quarantined.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        quarantined.getColumns().setAll(List.of(
                textColumn("No.", 60, q -> Long.toString(q.id())),
                textColumn("Desk", 90, q -> model.deskName(q.desk())),
                textColumn("Title", 300, ArticleQuarantine.Entry::title),
                textColumn("Sent back", 80, q -> Integer.toString(q.attempts())),
                textColumn("Why", 300, q -> q.reason() == null ? "" : q.reason())));
        quarantined.setPlaceholder(muted("No article is in quarantine."));
        quarantined.getSelectionModel().selectedItemProperty().addListener((o, a, q) -> model.selectedQuarantinedProperty().set(q));
        model.selectedQuarantinedProperty().addListener((o, a, q) -> {
            if (q == null) {
                quarantined.getSelectionModel().clearSelection();
            } else if (quarantined.getSelectionModel().getSelectedItem() != q) {
                quarantined.getSelectionModel().select(q);
            }
        });
        TextField title = new TextField();
        title.setId("corrected-title");
        title.setPromptText("Corrected title");
        title.textProperty().bindBidirectional(model.correctedTitleProperty());
        TextField note = new TextField();
        note.setId("requeue-note");
        note.setPromptText("Note for the history (optional)");
        note.textProperty().bindBidirectional(model.requeueNoteProperty());
        Button requeue = new Button("Correct and requeue", new FontIcon(Feather.CORNER_UP_LEFT));
        requeue.setId("requeue-article");
        requeue.getStyleClass().add(Styles.ACCENT);
        requeue.disableProperty().bind(model.selectedQuarantinedProperty().isNull().or(model.actingProperty()));
        requeue.setOnAction(e -> model.requeueSelectedArticle());
        VBox articleForm = form("Put back in the queue", title, note, requeue);
        articleForm.disableProperty().bind(model.selectedQuarantinedProperty().isNull());

        rejects.setId("import-rejects");
        rejects.setItems(model.importRejects());
        rejects.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        rejects.getColumns().setAll(List.of(
                textColumn("Source", 180, r -> r.sourceName() + ":" + r.lineNumber()),
                textColumn("Why it was refused", 260, ImportRejects.Reject::reason),
                textColumn("Row as imported", 360, r -> r.rawText().replace('\n', ' '))));
        rejects.setPlaceholder(muted("No imported row is waiting for correction."));
        rejects.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> model.selectedRejectProperty().set(r));
        model.selectedRejectProperty().addListener((o, a, r) -> {
            if (r == null) {
                rejects.getSelectionModel().clearSelection();
            } else if (rejects.getSelectionModel().getSelectedItem() != r) {
                rejects.getSelectionModel().select(r);
            }
        });
        TextArea row = new TextArea();
        row.setId("corrected-row");
        row.setWrapText(true);
        row.setPrefRowCount(10); // room for a row's fields, one per line
        row.setPromptText("{\"desk\": \"news\", \"title\": \"\u2026\", \"body\": \"\u2026\"}");
        row.textProperty().bindBidirectional(model.correctedRowProperty());
        Button requeueRow = new Button("Requeue as article", new FontIcon(Feather.CORNER_UP_LEFT));
        requeueRow.setId("requeue-row");
        requeueRow.getStyleClass().add(Styles.ACCENT);
        requeueRow.disableProperty().bind(model.selectedRejectProperty().isNull().or(model.actingProperty()));
        requeueRow.setOnAction(e -> model.requeueSelectedReject());
        Button discard = new Button("Discard", new FontIcon(Feather.TRASH_2));
        discard.setId("discard-row");
        discard.getStyleClass().add(Styles.FLAT);
        discard.disableProperty().bind(requeueRow.disableProperty());
        discard.setOnAction(e -> model.discardSelectedReject());
        VBox rowForm = form("Correct the row (JSON)", row, new HBox(8, requeueRow, discard));
        rowForm.disableProperty().bind(model.selectedRejectProperty().isNull());

        VBox page = new VBox(10,
                sectionTitle("Quarantined articles", "Marked unreviewable, or sent back more often than the desk allows"),
                split(quarantined, articleForm),
                sectionTitle("Rows refused by imports", "Correct the row and requeue it, or discard it"),
                split(rejects, rowForm));
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    private static HBox split(TableView<?> table, VBox form) {
        HBox.setHgrow(table, Priority.ALWAYS);
        HBox box = new HBox(10, table, form);
        VBox.setVgrow(box, Priority.ALWAYS);
        return box;
    }

    private static VBox form(String title, Node... content) {
        Label t = new Label(title);
        t.getStyleClass().add(Styles.TEXT_BOLD);
        VBox box = new VBox(8, t);
        box.getChildren().addAll(content);
        box.setPadding(new Insets(12));
        box.setPrefWidth(320);
        box.setMinWidth(280);
        box.getStyleClass().add("review-panel");
        return box;
    }

    private static Node sectionTitle(String title, String note) {
        Label t = new Label(title);
        t.getStyleClass().add(Styles.TITLE_4);
        Label n = new Label(note);
        n.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        HBox box = new HBox(12, t, n);
        box.setAlignment(Pos.BASELINE_LEFT);
        return box;
    }

    private static Label muted(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Styles.TEXT_MUTED);
        return l;
    }

    // --- shared -------------------------------------------------------------------------------------

    private static <T> TableColumn<T, String> textColumn(String title, double width, Function<T, String> value) {
        TableColumn<T, String> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(value.apply(f.getValue())));
        return c;
    }

    private static <T> TableColumn<T, Number> numberColumn(String title, java.util.function.ToIntFunction<T> value) {
        TableColumn<T, Number> c = new TableColumn<>(title);
        c.setPrefWidth(100);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.applyAsInt(f.getValue())));
        c.getStyleClass().add("number-column");
        return c;
    }


    private void exportCurrentTab() {
        DashboardTab which = (DashboardTab) tabs.getSelectionModel().getSelectedItem().getUserData();
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export " + which.title() + " as CSV");
        chooser.setInitialFileName("copydesk-" + which.fileStem() + ".csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV files", "*.csv"));
        File file = chooser.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (file != null) {
            model.export(which, file.toPath());
        }
    }

    private void initListeners() {
        holders.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (row != null && row != model.selectedProperty().get()) {
                model.selectedProperty().set(row);
            }
        });
        model.selectedProperty().addListener((o, a, row) -> {
            if (row == null) {
                holders.getSelectionModel().clearSelection();
            } else if (holders.getSelectionModel().getSelectedItem() != row) {
                holders.getSelectionModel().select(row);
            }
        });
        // the model replaces the rows in one change, which clears the table's selection: restore it
        model.holders().addListener((javafx.collections.ListChangeListener<HolderRow>) c -> {
            HolderRow row = model.selectedProperty().get();
            if (row != null && holders.getSelectionModel().getSelectedItem() != row) {
                holders.getSelectionModel().select(row);
            }
        });
        fill(finishedChart, model.finishedChartProperty().get());
        fill(expiredChart, model.expiredChartProperty().get());
        model.finishedChartProperty().addListener((o, a, data) -> fill(finishedChart, data));
        model.expiredChartProperty().addListener((o, a, data) -> fill(expiredChart, data));
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> {
            switch ((DashboardTab) t.getUserData()) {
                case HEALTH, EDITORS -> model.refreshStats();
                case AUDIT -> model.searchAudit();
                case QUARANTINE -> model.refreshQuarantine();
                default -> { }
            }
        });
    }

    /** For tests and screenshots: shows the given tab. */
    public void show(DashboardTab which) {
        tabs.getTabs().stream().filter(t -> t.getUserData() == which).findFirst().ifPresent(t -> tabs.getSelectionModel().select(t));
    }
}
