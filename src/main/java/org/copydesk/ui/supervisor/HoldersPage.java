package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.controlsfx.control.textfield.TextFields;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The "Who holds what" page: search and grouping, the groups, the live table (several rows can be
 * selected) and the {@link LeaseActionsPanel}. Binds to {@link HoldersViewModel}.
 *
 * <p>The table can hold ten thousand rows: it is virtualised, its rows are replaced only when the
 * server says they changed, and the countdown cells redraw from one clock property, so a tick costs
 * the visible cells, not the table. The pointer over the table or its actions holds the rows still
 * (see {@link HoldersViewModel}); the selection is restored by lease after every change of rows.
 */
final class HoldersPage extends VBox {

    /** The least room the article's title keeps however narrow the window. */
    static final double ARTICLE_MIN_WIDTH = 200;

    static final PseudoClass EXPIRING = PseudoClass.getPseudoClass("expiring");
    private static final Duration EXPIRING_WITHIN = Duration.ofMinutes(2);

    private final HoldersViewModel model;
    private final TableView<HolderRow> table = new TableView<>();
    private boolean syncing;

    HoldersPage(HoldersViewModel model, LeaseActionsViewModel actions) {
        super(10);
        this.model = model;
        // the actions scroll when the window is short, so the page never grows past it
        ScrollPane side = new ScrollPane(new LeaseActionsPanel(actions, model));
        side.setId("lease-actions-scroll");
        side.setFitToWidth(true);
        side.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        side.setMinWidth(Region.USE_PREF_SIZE);
        side.getStyleClass().add("edge-to-edge");
        HBox body = new HBox(10, new GroupList(model), createTable(), side);
        VBox.setVgrow(body, Priority.ALWAYS);
        getChildren().addAll(createFilters(), body, Tables.inlineError("holders-error", model.errorProperty()));
        getStyleClass().add("holders-page");
        Tables.padded(this);
        // working with the rows holds them still: pointing at the table or its actions, or the keyboard on them
        model.pointerOverProperty().bind(body.hoverProperty());
        model.keyboardOnRowsProperty().bind(keyboardOnRows());
        initSelection();
    }

    private HBox createFilters() {
        // ControlsFX's search field: a clear button appears once something is typed
        TextField search = TextFields.createClearableTextField();
        search.setId("holder-search");
        search.setPromptText(Messages.text("dashboard.holders.search.prompt"));
        search.setAccessibleText(Messages.text("dashboard.holders.search.accessible"));
        search.setPrefColumnCount(28);
        search.textProperty().bindBidirectional(model.searchProperty());
        ChoiceBox<Grouping> grouping = new ChoiceBox<>();
        grouping.setId("grouping");
        grouping.setAccessibleText(Messages.text("dashboard.holders.grouping.accessible"));
        grouping.getItems().setAll(Grouping.values());
        grouping.valueProperty().bindBidirectional(model.groupingProperty());
        Label summary = new Label();
        summary.setId("holders-summary");
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.textProperty().bind(model.summaryProperty());
        Label order = new Label();
        order.setId("holders-order");
        order.textProperty().bind(model.sortDescriptionProperty());
        order.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        order.setGraphic(new FontIcon(Feather.ARROW_DOWN));
        order.setTooltip(new Tooltip(Messages.text("dashboard.holders.order.tooltip")));
        // seen at 1360 px with changes waiting: every label was cut short. The count of leases
        // and the waiting changes never are; the sort hint (the header's arrow says it too) gives way.
        summary.setMinWidth(Region.USE_PREF_SIZE);
        order.setMinWidth(0);
        Spacer spacer = new Spacer();
        HBox filters = new HBox(10, new FontIcon(Feather.SEARCH), search, grouping, spacer, createHeldChanges(), order, summary);
        filters.setAlignment(Pos.CENTER_LEFT);
        return filters;
    }

    /** "3 changes wait while you work here" and a button to show them; in the filter row, so nothing below moves. */
    private HBox createHeldChanges() {
        Label text = new Label();
        text.setId("held-changes");
        text.getStyleClass().add(Styles.TEXT_SMALL);
        text.setGraphic(new FontIcon(Feather.PAUSE_CIRCLE));
        text.textProperty().bind(model.heldTextProperty());
        text.setMinWidth(Region.USE_PREF_SIZE);
        Button show = new Button(Messages.text("dashboard.holders.showChanges"));
        show.setMinWidth(Region.USE_PREF_SIZE);
        show.setId("show-held-changes");
        show.getStyleClass().addAll(Styles.SMALL, Styles.BUTTON_OUTLINED);
        show.setTooltip(new Tooltip(Messages.text("dashboard.holders.showChanges.tooltip")));
        show.setOnAction(e -> model.showHeldChanges());
        HBox box = new HBox(6, text, show);
        box.setAlignment(Pos.CENTER_LEFT);
        box.getStyleClass().add("held-changes");
        box.visibleProperty().bind(model.heldTextProperty().isNotEmpty());
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    private TableView<HolderRow> createTable() {
        table.setId("holders");
        table.setAccessibleText(Messages.text("dashboard.holders.table.accessible"));
        // before the table listens to its rows: whatever the table does to its selection while the
        // rows are replaced is not the supervisor's doing (see initSelection)
        model.rows().addListener((ListChangeListener<HolderRow>) c -> syncing = true);
        table.setItems(model.rows());
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Label empty = new Label();
        empty.setId("holders-empty");
        empty.setWrapText(true);
        empty.textProperty().bind(model.emptyTextProperty());
        empty.getStyleClass().addAll(Styles.TEXT_MUTED, "empty-state");
        table.setPlaceholder(empty);
        Map<TableColumn<HolderRow, ?>, HolderSort> sortKeys = new LinkedHashMap<>();
        sortKeys.put(timeLeftColumn(), HolderSort.TIME_LEFT);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.editor.column"), 150, HolderRow::editorName), HolderSort.EDITOR);
        sortKeys.put(presenceColumn(), HolderSort.HOLDER);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.article.column"), 380, HolderRow::title), HolderSort.ARTICLE);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.desk.column"), 90,
                r -> r.stageName() == null ? model.deskName(r.desk()) // on a desk with stages: "News · Legal"
                        : Messages.text("dashboard.holders.deskAndStage", model.deskName(r.desk()), r.stageName())), HolderSort.DESK);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.claimed.column"), 90,
                r -> r.claimedAt() == null ? "" : Formats.localClock(r.claimedAt(), model.zone())),
                HolderSort.CLAIMED);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.renewals.column"), 86, r -> Integer.toString(r.renewals())),
                HolderSort.RENEWALS);
        sortKeys.put(textColumn(Messages.text("dashboard.holders.number.column"), 60, r -> Long.toString(r.id())), HolderSort.NUMBER);
        table.getColumns().setAll(sortKeys.keySet());
        // When space is short (1024x640, 150 %) every column gives way down to a narrow minimum and the
        // article's title keeps room to be read: with the others held at their full widths it was
        // squeezed to ~70 px, the one column a supervisor reads to know which article a row is.
        sortKeys.forEach((c, key) -> {
            c.setId("col-" + key.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            c.setMinWidth(switch (key) {
                case ARTICLE -> ARTICLE_MIN_WIDTH;
                case EDITOR -> 90;
                case NUMBER -> 44;
                default -> Math.min(c.getPrefWidth(), 56);
            });
        });
        // The model sorts (inside the grouping, merging each refresh into a sorted array); the
        // header only says which key and direction. No column chosen: the default, which a
        // renewal does not change (see HolderSort), and the header shows it from the start.
        table.setSortPolicy(t -> {
            List<TableColumn<HolderRow, ?>> chosen = t.getSortOrder();
            TableColumn<HolderRow, ?> first = chosen.isEmpty() ? null : chosen.get(0);
            model.sortBy(first == null ? HolderSort.DEFAULT : sortKeys.get(first),
                    first == null ? HolderSort.DEFAULT_ASCENDING : first.getSortType() == TableColumn.SortType.ASCENDING);
            return true;
        });
        sortKeys.forEach((c, key) -> {
            if (key == model.sortKeyProperty().get()) {
                c.setSortType(model.sortAscendingProperty().get() ? TableColumn.SortType.ASCENDING : TableColumn.SortType.DESCENDING);
                table.getSortOrder().setAll(List.of(c));
            }
        });
        HBox.setHgrow(table, Priority.ALWAYS);
        return table;
    }

    /**
     * True while the table has the focus and was last used with the keyboard: a supervisor moving
     * through the rows with the arrow keys works with them as one pointing at them does. After a
     * click it is the pointer that counts, so rows move again once it leaves.
     */
    private BooleanProperty keyboardOnRows() {
        BooleanProperty keyboard = new SimpleBooleanProperty();
        table.addEventFilter(KeyEvent.KEY_PRESSED, e -> keyboard.set(true));
        table.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> keyboard.set(false));
        table.focusedProperty().addListener((o, a, focused) -> {
            if (!focused) {
                keyboard.set(false);
            }
        });
        return keyboard;
    }

    /** The table's selection and the model's are the same leases, whichever moved last. */
    private void initSelection() {
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<HolderRow>) c -> {
            if (!syncing) {
                model.select(new ArrayList<>(table.getSelectionModel().getSelectedItems()));
            }
        });
        // after the table has taken in new rows: select the same leases again, wherever they are now
        model.rows().addListener((ListChangeListener<HolderRow>) c -> showSelection());
        model.selection().addListener((ListChangeListener<HolderRow>) c -> {
            if (!syncing) {
                showSelection();
            }
        });
    }

    private void showSelection() {
        syncing = true;
        try {
            Set<Long> ids = new HashSet<>();
            model.selection().forEach(r -> ids.add(r.id()));
            List<HolderRow> rows = table.getItems();
            List<Integer> wanted = new ArrayList<>();
            for (int i = 0; i < rows.size() && wanted.size() < ids.size(); i++) {
                if (ids.contains(rows.get(i).id())) {
                    wanted.add(i);
                }
            }
            if (!wanted.equals(table.getSelectionModel().getSelectedIndices())) {
                table.getSelectionModel().clearSelection();
                if (!wanted.isEmpty()) {
                    table.getSelectionModel().selectIndices(wanted.get(0),
                            wanted.subList(1, wanted.size()).stream().mapToInt(Integer::intValue).toArray());
                }
            }
        } finally {
            syncing = false;
        }
    }

    private TableColumn<HolderRow, HolderRow> timeLeftColumn() {
        TableColumn<HolderRow, HolderRow> c = new TableColumn<>(Messages.text("dashboard.holders.timeLeft.column"));
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
        TableColumn<HolderRow, HolderRow> c = new TableColumn<>(Messages.text("dashboard.holders.holder.column"));
        c.setPrefWidth(80);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new ClockCell() {
            private final FontIcon dot = new FontIcon(Feather.CIRCLE);

            @Override
            void render(HolderRow row, long now) {
                Presence p = model.presenceOf(row);
                setText(p.label());
                dot.getStyleClass().setAll("ikonli-font-icon", "presence-" + p.name().toLowerCase(Locale.ROOT));
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
}
