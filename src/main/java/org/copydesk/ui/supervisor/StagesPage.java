package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;

import atlantafx.base.theme.Styles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.copydesk.review.Desk;
import org.copydesk.review.Stage;
import org.copydesk.review.StageBoard;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;

/**
 * The "Stages" page: the chosen desk's board, a column per stage (its counts and its articles in
 * claim order), and beside it moving the chosen article to another stage and, for an admin, the
 * chain's setup ({@link StageSetupPanel}). Binds to {@link StageBoardViewModel} and
 * {@link StageSetupViewModel}.
 */
final class StagesPage extends VBox {

    /** A column is as wide as a card with a two-line headline. */
    private static final double COLUMN_WIDTH = 210;

    private final StageBoardViewModel model;
    private final HBox board = new HBox(8);
    private final Map<String, ListView<StageBoard.Card>> lists = new LinkedHashMap<>();

    StagesPage(StageBoardViewModel model, StageSetupViewModel setup) {
        super(10);
        this.model = model;
        ChoiceBox<Desk> desk = DeskPicker.of("stages-desk", model.desks(), model.deskProperty());
        HBox top = new HBox(10, new Label(Messages.text("dashboard.queue.desk")), desk);
        top.setAlignment(Pos.CENTER_LEFT);

        board.setId("stage-board");
        board.setFillHeight(true);
        ScrollPane boardScroll = new ScrollPane(board);
        boardScroll.setFitToHeight(true);
        boardScroll.setVbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        boardScroll.getStyleClass().add("edge-to-edge");
        boardScroll.setMinWidth(0);
        Label none = muted(Messages.text("dashboard.stages.none"));
        none.setWrapText(true);
        none.setId("stages-none");
        none.visibleProperty().bind(javafx.beans.binding.Bindings.isEmpty(model.columns()));
        StackPane boardArea = new StackPane(boardScroll, none);
        StackPane.setAlignment(none, Pos.TOP_LEFT);
        boardArea.setMinWidth(0);
        HBox.setHgrow(boardArea, Priority.ALWAYS);
        model.columns().addListener((ListChangeListener<StageBoard.Column>) c -> showColumns());
        model.selectedProperty().addListener((o, a, card) -> lists.values().forEach(l -> {
            if (card == null || !l.getItems().contains(card)) {
                l.getSelectionModel().clearSelection();
            } else if (l.getSelectionModel().getSelectedItem() != card) {
                l.getSelectionModel().select(card);
            }
        }));

        VBox side = new VBox(14, movePanel());
        if (setup.shown()) {
            side.getChildren().add(new StageSetupPanel(setup, model));
        }
        side.setPrefWidth(300);
        side.setMaxWidth(300);
        ScrollPane sideScroll = new ScrollPane(side);
        sideScroll.setFitToWidth(true);
        sideScroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        sideScroll.setMinWidth(Region.USE_PREF_SIZE);
        sideScroll.setPrefWidth(316);
        sideScroll.getStyleClass().add("edge-to-edge");
        // in a short window the setup scrolls: the control the keyboard (Tab) reaches is scrolled into view
        sceneProperty().addListener((o, was, scene) -> {
            if (scene != null) {
                scene.focusOwnerProperty().addListener((f, a, focused) -> scrollTo(sideScroll, side, focused));
            }
        });
        HBox body = new HBox(10, boardArea, sideScroll);
        VBox.setVgrow(body, Priority.ALWAYS);
        body.setMinHeight(0);
        model.pointerOverProperty().bind(body.hoverProperty());
        getChildren().addAll(top, body, Tables.inlineError("stages-error", model.loadErrorProperty()));
        Tables.padded(this);
        setMinHeight(0);
    }

    /** Scrolls {@code scroll} so that {@code node}, if it lies in {@code content}, is in view. */
    private static void scrollTo(ScrollPane scroll, Region content, Node node) {
        boolean inside = false;
        for (Node n = node; n != null; n = n.getParent()) {
            inside |= n == content;
        }
        double room = content.getHeight() - scroll.getViewportBounds().getHeight();
        if (!inside || room <= 0) {
            return;
        }
        javafx.geometry.Bounds b = content.sceneToLocal(node.localToScene(node.getLayoutBounds()));
        double top = scroll.getVvalue() * room;
        double viewport = scroll.getViewportBounds().getHeight();
        if (b.getMinY() < top) {
            scroll.setVvalue(b.getMinY() / room);
        } else if (b.getMaxY() > top + viewport) {
            scroll.setVvalue(Math.min(1, (b.getMaxY() - viewport) / room));
        }
    }

    /** The columns as read: a column per stage, kept (with its scroll position) while the chain stays the same. */
    private void showColumns() {
        List<String> ids = model.columns().stream().map(c -> c.stage().id()).toList();
        if (!ids.equals(List.copyOf(lists.keySet()))) {
            lists.clear();
            board.getChildren().clear();
            for (StageBoard.Column c : model.columns()) {
                board.getChildren().add(column(c.stage().id()));
            }
        }
        for (int i = 0; i < model.columns().size(); i++) {
            StageBoard.Column c = model.columns().get(i);
            VBox node = (VBox) board.getChildren().get(i);
            ((Label) node.getChildren().get(0)).setText(c.stage().name());
            ((Label) node.getChildren().get(1)).setText(model.setupOf(c.stage()));
            ((Label) node.getChildren().get(2)).setText(model.countsOf(c));
            lists.get(c.stage().id()).getItems().setAll(c.cards());
        }
        StageBoard.Card card = model.selectedProperty().get();
        lists.values().forEach(l -> {
            if (card != null && l.getItems().contains(card)) {
                l.getSelectionModel().select(card);
            }
        });
    }

    private VBox column(String stageId) {
        Label name = new Label();
        name.getStyleClass().addAll(Styles.TITLE_4);
        name.setId("stage-name-" + stageId);
        Label setup = new Label();
        setup.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        setup.setWrapText(true);
        setup.setMinHeight(Region.USE_PREF_SIZE);
        Label counts = new Label();
        counts.setId("stage-counts-" + stageId);
        counts.setWrapText(true);
        counts.setMinHeight(Region.USE_PREF_SIZE);
        ListView<StageBoard.Card> cards = new ListView<>();
        cards.setId("stage-cards-" + stageId);
        cards.setPlaceholder(muted(Messages.text("dashboard.stages.emptyStage")));
        cards.setCellFactory(v -> new CardCell());
        cards.getSelectionModel().selectedItemProperty().addListener((o, a, card) -> {
            if (card != null && card != model.selectedProperty().get()) {
                model.selectedProperty().set(card);
            }
        });
        VBox.setVgrow(cards, Priority.ALWAYS);
        lists.put(stageId, cards);
        VBox box = new VBox(4, name, setup, counts, cards);
        box.getStyleClass().add("stage-column");
        box.setPrefWidth(COLUMN_WIDTH);
        box.setMinWidth(COLUMN_WIDTH);
        return box;
    }

    /** A card: the headline (two lines at most) and its state ("Ann Kowalski is reviewing", "Waiting 12 min"). */
    private final class CardCell extends ListCell<StageBoard.Card> {

        private final Label title = new Label();
        private final Label state = new Label();
        private final VBox box = new VBox(2, title, state);

        CardCell() {
            title.setWrapText(true);
            title.setMaxHeight(40);
            title.getStyleClass().add(Styles.TEXT_BOLD);
            title.setMaxWidth(COLUMN_WIDTH - 30);
            state.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        }

        @Override
        protected void updateItem(StageBoard.Card card, boolean empty) {
            super.updateItem(card, empty);
            if (empty || card == null) {
                setGraphic(null);
                return;
            }
            title.setText(card.title());
            state.setText(model.stateOf(card));
            setGraphic(box);
        }
    }

    /** Moving the chosen article to another stage: where to, the reason (required), asked first. */
    private Node movePanel() {
        Label header = new Label(Messages.text("dashboard.stages.move.title"));
        header.getStyleClass().add(Styles.TITLE_4);
        Label chosen = new Label();
        chosen.setId("stages-chosen");
        chosen.setWrapText(true);
        chosen.setMinHeight(Region.USE_PREF_SIZE);
        chosen.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            StageBoard.Card c = model.selectedProperty().get();
            return c == null ? Messages.text("dashboard.stages.move.chooseOne")
                    : c.movable() ? c.title() : Messages.text("dashboard.stages.move.inReview", c.title());
        }, model.selectedProperty()));
        ChoiceBox<Stage> to = new ChoiceBox<>(model.moveTargets());
        to.setId("stages-move-to");
        to.setConverter(named(Stage::name, ""));
        to.valueProperty().bindBidirectional(model.moveToProperty());
        to.setMaxWidth(Double.MAX_VALUE);
        TextField reason = new TextField();
        reason.setId("stages-move-reason");
        reason.setPromptText(Messages.text("dashboard.stages.move.reason"));
        reason.textProperty().bindBidirectional(model.reasonProperty());
        Button move = new Button(Messages.text("dashboard.stages.move.button"));
        move.setId("stages-move");
        move.disableProperty().bind(model.canMoveProperty().not());
        move.setOnAction(e -> model.moveSelected());
        AskFirstBox ask = new AskFirstBox(model.question(), new String[] {"stages-move-question", "stages-move-confirm",
            "stages-move-cancel"}, "action-question", Feather.HELP_CIRCLE, Styles.ACCENT);
        Label error = Tables.inlineError("stages-move-error", model.errorProperty());
        return new VBox(6, header, chosen, new Label(Messages.text("dashboard.stages.move.to")), to, reason, move, ask, error);
    }

    static <T> StringConverter<T> named(java.util.function.Function<T, String> name, String none) {
        return new StringConverter<>() {
            @Override
            public String toString(T t) {
                return t == null ? none : name.apply(t);
            }

            @Override
            public T fromString(String text) {
                return null;
            }
        };
    }
}
