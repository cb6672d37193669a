package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.text.Font;
import javafx.scene.text.Text;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.supervisor.HoldersTable.GroupSummary;

/**
 * The side list of "Who holds what" when grouped by editor or desk: each group's name and how
 * many leases it has; choosing one shows only its rows. The list is as wide as its longest name
 * (within reason), so "Ann Kowalski-Lindqvist" reads whole; a name longer still ends in "…" and
 * is said whole in a tooltip.
 */
final class GroupList extends ListView<GroupSummary> {

    static final double MIN_WIDTH = 210;
    static final double MAX_WIDTH = 360;
    /** A cell's padding, the gap before the count and a vertical scroll bar. */
    private static final double CHROME = 64;

    GroupList(HoldersViewModel model) {
        super(model.groups());
        setId("groups");
        setAccessibleText(Messages.text("dashboard.holders.groups.accessible"));
        setPlaceholder(muted(Messages.text("dashboard.holders.groups.empty")));
        setPrefWidth(MIN_WIDTH);
        setMinWidth(Region.USE_PREF_SIZE);
        setCellFactory(v -> new GroupCell());
        model.groups().addListener((ListChangeListener<GroupSummary>) c -> setPrefWidth(widthFor(getItems(), cellFont())));
        visibleProperty().bind(model.groupingProperty().isNotEqualTo(Grouping.NONE));
        managedProperty().bind(visibleProperty());
        getSelectionModel().selectedItemProperty().addListener((o, a, g) -> {
            if (g != model.groupFilterProperty().get()) {
                model.groupFilterProperty().set(g);
            }
        });
        model.groupFilterProperty().addListener((o, a, g) -> {
            if (g == null) {
                getSelectionModel().clearSelection();
            } else if (getSelectionModel().getSelectedItem() != g) {
                getSelectionModel().select(g);
            }
        });
    }

    private Font cellFont() {
        return lookup(".list-cell") instanceof ListCell<?> cell ? cell.getFont() : Font.getDefault();
    }

    /** The width that shows every group's name and count whole, between {@link #MIN_WIDTH} and {@link #MAX_WIDTH}. */
    static double widthFor(Iterable<GroupSummary> groups, Font font) {
        Text probe = new Text();
        probe.setFont(font);
        double widest = 0;
        for (GroupSummary g : groups) {
            probe.setText(g.label() + "  " + g.leases());
            widest = Math.max(widest, probe.getLayoutBounds().getWidth());
        }
        return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.ceil(widest) + CHROME));
    }

    /** One group: its name, cut with "…" only when longer than the widest list, and its count beside it. */
    private static final class GroupCell extends ListCell<GroupSummary> {
        private final Label name = new Label();
        private final Label count = new Label();
        private final HBox box = new HBox(6, name, new Spacer(), count);
        private final Tooltip whole = new Tooltip();

        GroupCell() {
            name.setMinWidth(0);
            count.setMinWidth(Region.USE_PREF_SIZE);
            count.getStyleClass().add(Styles.TEXT_MUTED);
            box.setAlignment(Pos.CENTER_LEFT);
            setContentDisplay(ContentDisplay.GRAPHIC_ONLY); // the text stays for screen readers
        }

        @Override
        protected void updateItem(GroupSummary g, boolean empty) {
            super.updateItem(g, empty);
            if (empty || g == null) {
                setGraphic(null);
                setText(null);
                setTooltip(null);
                return;
            }
            name.setText(g.label());
            count.setText(Integer.toString(g.leases()));
            setText(g.toString());
            whole.setText(g.toString());
            setTooltip(whole);
            setGraphic(box);
        }
    }
}
