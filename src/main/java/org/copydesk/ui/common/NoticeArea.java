package org.copydesk.ui.common;

import atlantafx.base.theme.Styles;
import java.util.function.Consumer;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** A stack of notices, newest nearest the edge, each with its action and a close button. */
public final class NoticeArea extends VBox {

    private final Consumer<Notice> dismiss;

    public NoticeArea(ObservableList<Notice> notices, Consumer<Notice> dismiss) {
        super(8);
        this.dismiss = dismiss;
        setId("notices");
        setMaxSize(330, Region.USE_PREF_SIZE);
        setAlignment(Pos.BOTTOM_LEFT);
        setPickOnBounds(false);
        notices.addListener((ListChangeListener<Notice>) c -> render(notices));
        render(notices);
    }

    private void render(ObservableList<Notice> notices) {
        // newest first in the list; newest at the bottom edge on screen
        java.util.List<HBox> cards = new java.util.ArrayList<>(notices.stream().map(this::card).toList());
        java.util.Collections.reverse(cards);
        getChildren().setAll(cards);
    }

    private HBox card(Notice n) {
        Label text = new Label(n.text());
        text.setWrapText(true);
        text.setMaxWidth(250);
        text.setGraphic(new FontIcon(switch (n.kind()) {
            case INFO -> Feather.INFO;
            case SUCCESS -> Feather.CHECK_CIRCLE;
            case WARNING -> Feather.ALERT_TRIANGLE;
            case ERROR -> Feather.ALERT_TRIANGLE;
        }));
        VBox body = new VBox(6, text);
        if (n.action() != null) {
            Button act = new Button(n.actionLabel());
            act.getStyleClass().addAll(Styles.SMALL, Styles.ACCENT);
            act.setOnAction(e -> {
                n.action().run();
                dismiss.accept(n);
            });
            body.getChildren().add(act);
        }
        Button close = new Button(null, new FontIcon(Feather.X));
        close.setAccessibleText("Dismiss this notice");
        close.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT, Styles.SMALL);
        close.setOnAction(e -> dismiss.accept(n));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox card = new HBox(8, body, spacer, close);
        card.setAlignment(Pos.TOP_LEFT);
        card.getStyleClass().addAll("notice", "notice-" + n.kind().name().toLowerCase(java.util.Locale.ROOT));
        return card;
    }
}
