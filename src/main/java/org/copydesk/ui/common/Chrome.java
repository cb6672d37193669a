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
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
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
     * {@code content} with {@code banner} above it, pushing it down while it shows and taking no room
     * when it does not. Laid over the content's top instead, it hid what is there (the article's
     * title in an editor's window, the first rows of a table) at the very moment an editor needs to
     * know which article she was on; the content moving down once when the connection drops, and
     * back when it returns, costs less.
     */
    public static VBox underBanner(Node content, Label banner) {
        banner.managedProperty().bind(banner.visibleProperty());
        VBox.setVgrow(content, Priority.ALWAYS);
        VBox pane = new VBox(banner, content);
        pane.setFillWidth(true);
        pane.setMinSize(0, 0);
        return pane;
    }
}
