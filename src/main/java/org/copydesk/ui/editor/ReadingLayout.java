package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The editor's three panes — article list, reader, review panel — laid out by {@link PaneWidths}:
 * when the window shrinks the side panes give way first, then fold away to a narrow rail at the
 * window's edge, never the reader. Dragging a divider sets the width a side pane wants; a rail's
 * button unfolds its pane (folding the other one if both do not fit).
 */
final class ReadingLayout extends BorderPane {

    /** A folded pane's rail: as wide as its icon button. */
    private static final double RAIL = 36;

    private final SplitPane split = new SplitPane();
    private final Region list;
    private final Region reader;
    private final Region review;
    private final Button listRail;
    private final Button reviewRail;
    private double listWanted = 300;
    private double reviewWanted = 320;
    private boolean listOpen = true;
    private boolean reviewOpen = true;
    private boolean arranging;
    /** True while the editor drags a divider: only then do the dividers' positions say what widths the panes want. */
    private boolean dragging;
    private PaneWidths widths = new PaneWidths(0, 0, 0);

    ReadingLayout(Region list, Region reader, Region review) {
        this.list = list;
        this.reader = reader;
        this.review = review;
        list.setMinWidth(PaneWidths.LIST_MIN);
        review.setMinWidth(PaneWidths.REVIEW_MIN);
        reader.setMinWidth(0);
        // No pane may ask for more height than the window has: the window's layout would then push
        // the panes over the toolbar and under the notices. Each pane fits itself into what it gets.
        for (Region pane : new Region[] {list, reader, review}) {
            pane.setMinHeight(0);
        }
        split.setMinHeight(0);
        setMinHeight(0);
        listRail = rail(Messages.text("editor.myArticles"), Feather.CHEVRONS_RIGHT, "list-rail", () -> unfold(true));
        reviewRail = rail(Messages.text("editor.review"), Feather.CHEVRONS_LEFT, "review-rail", () -> unfold(false));
        split.setId("panes");
        split.setMinWidth(0);
        setCenter(split);
        setMinWidth(0);
        split.widthProperty().addListener((o, was, now) -> arrange());
        widthProperty().addListener((o, was, now) -> arrange());
        split.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> dragging = onDivider(e.getTarget()));
        split.addEventFilter(MouseEvent.MOUSE_RELEASED, e -> {
            if (dragging) {
                dragged();
                dragging = false;
            }
        });
        arrange();
    }

    private static boolean onDivider(Object target) {
        for (Node n = target instanceof Node node ? node : null; n != null; n = n.getParent()) {
            if (n.getStyleClass().contains("split-pane-divider")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every layout pass lays the panes out as {@link PaneWidths} says: the split pane moves its
     * dividers by itself when its panes' sizes change (a theme's fonts, a resize it sees first), and
     * such a move once left the reader squeezed to 70 px until the next resize.
     */
    @Override
    protected void layoutChildren() {
        if (!dragging) {
            arrange();
        }
        super.layoutChildren();
    }

    private static Button rail(String text, Feather icon, String id, Runnable unfold) {
        Button b = new Button(null, new FontIcon(icon));
        b.setId(id);
        b.setAccessibleText(Messages.text("editor.rail.show", text));
        b.setTooltip(new Tooltip(Messages.text("editor.rail.show", text.toLowerCase(Locale.ROOT))));
        b.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT, "pane-rail");
        b.setMaxHeight(Double.MAX_VALUE);
        b.setPrefWidth(RAIL);
        b.setMinWidth(RAIL);
        b.setOnAction(e -> unfold.run());
        return b;
    }

    /** Shows a folded pane; if both side panes do not fit beside the reader, the other one folds. */
    private void unfold(boolean theList) {
        double room = getWidth() - PaneWidths.READER_MIN;
        if (theList) {
            listOpen = true;
            reviewOpen = PaneWidths.LIST_MIN + PaneWidths.REVIEW_MIN <= room;
        } else {
            reviewOpen = true;
            listOpen = PaneWidths.LIST_MIN + PaneWidths.REVIEW_MIN <= room;
        }
        arrange();
    }

    private void arrange() {
        if (arranging) {
            return;
        }
        arranging = true;
        try {
            double total = getWidth();
            widths = PaneWidths.fit(total, listWanted, reviewWanted, listOpen, reviewOpen);
            double rails = (widths.listFolded() ? RAIL : 0) + (widths.reviewFolded() ? RAIL : 0);
            if (rails > 0) { // a folded pane leaves its rail
                widths = PaneWidths.fit(total - rails, listWanted, reviewWanted, listOpen, reviewOpen);
            }
            setLeft(widths.listFolded() ? listRail : null);
            setRight(widths.reviewFolded() ? reviewRail : null);
            List<Node> items = new ArrayList<>();
            if (!widths.listFolded()) {
                items.add(list);
            }
            items.add(reader);
            if (!widths.reviewFolded()) {
                items.add(review);
            }
            if (!split.getItems().equals(items)) {
                split.getItems().setAll(items);
                split.getDividers().forEach(d -> d.positionProperty().addListener((o, was, now) -> dragged()));
            }
            double w = Math.max(1, total - (widths.listFolded() ? RAIL : 0) - (widths.reviewFolded() ? RAIL : 0));
            if (!widths.listFolded() && !widths.reviewFolded()) {
                split.setDividerPositions(widths.list() / w, (w - widths.review()) / w);
            } else if (!widths.listFolded()) {
                split.setDividerPositions(widths.list() / w);
            } else if (!widths.reviewFolded()) {
                split.setDividerPositions((w - widths.review()) / w);
            }
        } finally {
            arranging = false;
        }
    }

    /** The editor moved a divider: the side panes want the widths they now have. */
    private void dragged() {
        if (arranging || !dragging || split.getWidth() <= 0) {
            return;
        }
        double w = split.getWidth();
        var positions = split.getDividerPositions();
        if (!widths.listFolded() && positions.length > 0) {
            listWanted = positions[0] * w;
        }
        if (!widths.reviewFolded() && positions.length > 0) {
            reviewWanted = (1 - positions[positions.length - 1]) * w;
        }
    }

    PaneWidths widths() {
        return widths;
    }
}
