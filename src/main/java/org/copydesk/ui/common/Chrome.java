package org.copydesk.ui.common;

import atlantafx.base.controls.Spacer;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** The parts every Copydesk window shares: the top bar and the offline banner. */
public final class Chrome {

    private Chrome() {
    }

    /**
     * A top bar: {@code left} nodes, a flexible gap, then {@code right} nodes. The right ones, the
     * bar's buttons, keep their whole width in a narrow window; what gives way on the left is the
     * caller's choice (a label with a minimum width of 0 ends in "…").
     */
    public static HBox toolbar(Node[] left, Node... right) {
        Spacer spacer = new Spacer();
        for (Node n : right) {
            if (n instanceof Region r) {
                r.setMinWidth(Region.USE_PREF_SIZE);
            }
        }
        HBox bar = new HBox(12, left);
        bar.getChildren().add(spacer);
        bar.getChildren().addAll(right);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(10, 16, 10, 16));
        bar.getStyleClass().add("toolbar-bar");
        return bar;
    }

    /** The thin vertical rule between groups in a top bar. */
    public static Node separator() {
        Region r = new Region();
        r.getStyleClass().add("toolbar-separator");
        return r;
    }

    /** The banner shown while the database cannot be reached; place it with {@link #underBanner}. */
    public static Label offlineBanner(ObservableStringValue text, ObservableBooleanValue offline) {
        Label banner = new Label();
        banner.setId("offline-banner");
        banner.setGraphic(new FontIcon(Feather.WIFI_OFF));
        banner.textProperty().bind(text);
        banner.setMaxWidth(Double.MAX_VALUE);
        banner.setMaxHeight(Region.USE_PREF_SIZE);
        banner.setWrapText(true);
        banner.getStyleClass().add("offline-banner");
        banner.visibleProperty().bind(offline);
        return banner;
    }

    /**
     * {@code content} with {@code banner} laid over its top edge. The banner comes and goes without
     * moving anything (were it laid out above the content, the whole window would jump down under
     * the pointer when the connection dropped); it covers the top of the content only while it shows.
     */
    public static StackPane underBanner(Node content, Label banner) {
        StackPane.setAlignment(banner, Pos.TOP_CENTER);
        StackPane pane = new StackPane(content, banner);
        pane.setMinSize(0, 0);
        return pane;
    }
}
