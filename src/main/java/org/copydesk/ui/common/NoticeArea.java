package org.copydesk.ui.common;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The notices in a row, newest nearest the right edge, each with its action and a close button.
 * Windows show it in a {@link #strip} of their own in the layout, so a notice never covers a
 * control; a row (not a stack) keeps that strip one notice tall, so a short window keeps its room.
 */
public final class NoticeArea extends HBox {

    /** The widest a notice's words run before they wrap; several notices share the row and wrap sooner. */
    private static final double TEXT_WIDTH = 440;

    private final Consumer<Notice> dismiss;

    public NoticeArea(ObservableList<Notice> notices, Consumer<Notice> dismiss) {
        super(8);
        this.dismiss = dismiss;
        setId("notices");
        setAlignment(Pos.BOTTOM_RIGHT);
        setFillHeight(false); // each card as tall as its own words
        setPickOnBounds(false);
        notices.addListener((ListChangeListener<Notice>) c -> render(notices));
        render(notices);
    }

    /**
     * The window's notice strip along its bottom edge, notices at the right: part of the layout, so
     * what is above it shrinks while notices show (and nothing is drawn over it), and it takes no room
     * when there are none.
     */
    public static HBox strip(ObservableList<Notice> notices, Consumer<Notice> dismiss) {
        HBox strip = new HBox(new NoticeArea(notices, dismiss));
        strip.setId("notice-strip");
        strip.setAlignment(Pos.BOTTOM_RIGHT);
        strip.setPadding(new Insets(8, 16, 8, 16));
        strip.visibleProperty().bind(Bindings.isNotEmpty(notices));
        strip.managedProperty().bind(strip.visibleProperty());
        return strip;
    }

    private void render(ObservableList<Notice> notices) {
        // newest first in the list; newest at the right edge on screen
        List<HBox> cards = new ArrayList<>(notices.stream().map(this::card).toList());
        Collections.reverse(cards);
        getChildren().setAll(cards);
    }

    private HBox card(Notice n) {
        Label text = new Label(n.text());
        text.setWrapText(true);
        text.setMaxWidth(TEXT_WIDTH); // as wide as a short window allows: a long notice in few lines, the panes keep their room
        text.setMinHeight(Region.USE_PREF_SIZE); // a narrow card grows taller, never cuts its words
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
        close.setAccessibleText(Messages.text("common.notice.dismiss.accessible"));
        close.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT, Styles.SMALL);
        close.setOnAction(e -> dismiss.accept(n));
        Spacer spacer = new Spacer();
        HBox card = new HBox(8, body, spacer, close);
        card.setAlignment(Pos.TOP_LEFT);
        card.setMaxWidth(TEXT_WIDTH + 80);
        card.setMinWidth(160); // several notices share the row; each wraps its words rather than vanish
        card.getStyleClass().addAll("notice", "notice-" + n.kind().name().toLowerCase(Locale.ROOT));
        return card;
    }
}
