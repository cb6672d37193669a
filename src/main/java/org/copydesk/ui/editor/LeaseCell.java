package org.copydesk.ui.editor;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.HeldArticle;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** An article with desk, priority and its lease countdown. */
final class LeaseCell extends ListCell<LeaseRow> {

    private static final PseudoClass EXPIRING = PseudoClass.getPseudoClass("expiring");

    private final Label title = new Label();
    private final Label desk = new Label();
    private final Label priority = new Label();
    private final Label stage = new Label();
    private final Label returned = new Label(Messages.text("editor.list.returned"), new FontIcon(Feather.CORNER_DOWN_LEFT));
    private final Label countdown = new Label();
    private final VBox box;
    private final ChangeListener<Boolean> expiring = (o, was, now) -> markExpiring(now);
    private final Function<String, String> deskName;
    private final Function<HeldArticle, String> stageName;
    private LeaseRow shown;

    /**
     * @param list its list (headlines wrap to its width); @param deskName a desk's id to its name;
     * @param stageName where an article is in its desk's chain ("Legal · 2 of 3"), empty on a desk without stages
     */
    LeaseCell(ListView<LeaseRow> list, Function<String, String> deskName, Function<HeldArticle, String> stageName) {
        this.deskName = deskName;
        this.stageName = stageName;
        title.setWrapText(true);
        title.getStyleClass().add(Styles.TEXT_BOLD);
        // two lines of headline, as wide as the list allows
        title.maxWidthProperty().bind(list.widthProperty().subtract(36));
        title.setMinHeight(Region.USE_PREF_SIZE);
        desk.getStyleClass().addAll("badge", "desk-badge");
        priority.getStyleClass().addAll("badge", "priority-badge");
        stage.getStyleClass().addAll("badge", "stage-badge");
        stage.setId("stage-badge");
        stage.setMinWidth(Region.USE_PREF_SIZE);
        stage.managedProperty().bind(stage.visibleProperty());
        returned.getStyleClass().addAll("badge", "returned-badge");
        returned.setId("returned-mark");
        returned.managedProperty().bind(returned.visibleProperty());
        countdown.getStyleClass().add("countdown");
        countdown.setGraphic(new FontIcon(Feather.CLOCK));
        Spacer spacer = new Spacer();
        HBox line = new HBox(6, desk, priority, returned, spacer, countdown);
        line.setAlignment(Pos.CENTER_LEFT);
        // on a desk with stages, the stage under the headline, on a line of its own: beside the desk,
        // priority and countdown it did not fit a 1024 px window's list ("Sign-off · 3 of 3")
        box = new VBox(4, title, stage, line);
    }

    @Override
    protected void updateItem(LeaseRow row, boolean empty) {
        super.updateItem(row, empty);
        countdown.textProperty().unbind();
        if (shown != null) {
            shown.expiringSoonProperty().removeListener(expiring);
        }
        shown = empty ? null : row;
        if (empty || row == null) {
            setGraphic(null);
            return;
        }
        title.setText(row.article().title());
        desk.setText(deskName.apply(row.article().desk()));
        priority.setText(Messages.text("editor.list.priority", row.article().priority()));
        String where = stageName.apply(row.article());
        stage.setText(where);
        stage.setVisible(!where.isEmpty());
        stage.setTooltip(where.isEmpty() ? null : new Tooltip(where));
        returned.setVisible(row.returned());
        returned.setTooltip(row.returned() ? new Tooltip(Messages.text("editor.list.returnedTooltip", row.article().attempts())) : null);
        priority.getStyleClass().removeAll("p1", "p2");
        if (row.article().priority() <= 2) {
            priority.getStyleClass().add("p" + row.article().priority());
        }
        countdown.textProperty().bind(Bindings.createStringBinding(() -> Formats.countdown(row.remainingProperty().get()),
                row.remainingProperty()));
        markExpiring(row.expiringSoonProperty().get());
        row.expiringSoonProperty().addListener(expiring);
        setGraphic(box);
    }

    private void markExpiring(boolean soon) {
        countdown.pseudoClassStateChanged(EXPIRING, soon);
    }
}
