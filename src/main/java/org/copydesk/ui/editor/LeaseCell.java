package org.copydesk.ui.editor;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.time.Duration;
import java.time.ZoneId;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.HeldArticle;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * An article with desk, priority, its lease countdown and, when it has a due time, the time left
 * before it is due ("due in 25 min"; "late by 12 min" with a warning icon and marked {@code :late}, so
 * lateness is not told by colour alone). A screen reader hears all of it as one line.
 */
final class LeaseCell extends ListCell<LeaseRow> {

    private static final PseudoClass EXPIRING = PseudoClass.getPseudoClass("expiring");
    static final PseudoClass LATE = PseudoClass.getPseudoClass("late");

    private final Label title = new Label();
    private final Label desk = new Label();
    private final Label priority = new Label();
    private final Label stage = new Label();
    private final Label returned = new Label(Messages.text("editor.list.returned"), new FontIcon(Feather.CORNER_DOWN_LEFT));
    private final Label countdown = new Label();
    private final Label due = new Label();
    private final FontIcon dueIcon = new FontIcon(Feather.FLAG);
    private final FontIcon lateIcon = new FontIcon(Feather.ALERT_TRIANGLE);
    private final VBox box;
    private final ChangeListener<Boolean> expiring = (o, was, now) -> markExpiring(now);
    private final ChangeListener<Duration> dueLeft = (o, was, now) -> markLate(DueWords.late(now));
    private final Function<String, String> deskName;
    private final Function<HeldArticle, String> stageName;
    private final ZoneId zone;
    private LeaseRow shown;

    /**
     * @param list its list (headlines wrap to its width); @param deskName a desk's id to its name;
     * @param stageName where an article is in its desk's chain ("Legal · 2 of 3"), empty on a desk without stages;
     * @param zone the person's time zone, for a due time shown on the clock ("due 18:30")
     */
    LeaseCell(ListView<LeaseRow> list, Function<String, String> deskName, Function<HeldArticle, String> stageName, ZoneId zone) {
        this.deskName = deskName;
        this.stageName = stageName;
        this.zone = zone;
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
        due.getStyleClass().add("due-time");
        due.setId("due-time");
        due.setMinWidth(Region.USE_PREF_SIZE);
        due.managedProperty().bind(due.visibleProperty());
        Spacer spacer = new Spacer();
        HBox line = new HBox(6, desk, priority, returned, spacer, countdown);
        line.setAlignment(Pos.CENTER_LEFT);
        // on a desk with stages, the stage under the headline, on a line of its own: beside the desk,
        // priority and countdown it did not fit a 1024 px window's list ("Sign-off · 3 of 3"); the due
        // time beside it where both fit, under it where they do not (a narrow list, 150 %), never cut
        FlowPane whereAndWhen = new FlowPane(6, 4, stage, due);
        whereAndWhen.setAlignment(Pos.CENTER_LEFT);
        whereAndWhen.prefWrapLengthProperty().bind(title.maxWidthProperty());
        whereAndWhen.maxWidthProperty().bind(title.maxWidthProperty());
        whereAndWhen.managedProperty().bind(whereAndWhen.visibleProperty());
        whereAndWhen.visibleProperty().bind(stage.visibleProperty().or(due.visibleProperty()));
        box = new VBox(4, title, whereAndWhen, line);
    }

    @Override
    protected void updateItem(LeaseRow row, boolean empty) {
        super.updateItem(row, empty);
        countdown.textProperty().unbind();
        due.textProperty().unbind();
        due.visibleProperty().unbind();
        accessibleTextProperty().unbind();
        if (shown != null) {
            shown.expiringSoonProperty().removeListener(expiring);
            shown.dueLeftProperty().removeListener(dueLeft);
        }
        shown = empty ? null : row;
        if (empty || row == null) {
            setGraphic(null);
            setAccessibleText(null);
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
        showDue(row);
        setGraphic(box);
    }

    /**
     * The time left before the article is due, following the row's tick; the icon and the words
     * change when it is late, not only the colour. Nothing for an article without a due time.
     */
    private void showDue(LeaseRow row) {
        due.visibleProperty().bind(row.dueLeftProperty().isNotNull());
        due.textProperty().bind(Bindings.createStringBinding(() -> DueWords.of(row.article().dueAt(), row.dueLeftProperty().get(), zone),
                row.dueLeftProperty(), row.articleProperty()));
        markLate(DueWords.late(row.dueLeftProperty().get()));
        row.dueLeftProperty().addListener(dueLeft);
        accessibleTextProperty().bind(Bindings.createStringBinding(() -> spoken(row),
                row.dueLeftProperty(), row.remainingProperty(), row.articleProperty()));
    }

    /** "Council votes on budget. News, priority 3, Legal · 2 of 3. Due in 25 min. Lease: 24 min left." */
    private String spoken(LeaseRow row) {
        HeldArticle a = row.article();
        String where = stageName.apply(a);
        String when = DueWords.of(a.dueAt(), row.dueLeftProperty().get(), zone);
        return Messages.text("editor.list.accessible", a.title(), deskName.apply(a.desk()), a.priority(),
                where.isEmpty() ? 0 : 1, where, when.isEmpty() ? 0 : 1, when, Formats.roughly(row.remainingProperty().get()));
    }

    private void markLate(boolean late) {
        due.pseudoClassStateChanged(LATE, late);
        due.setGraphic(late ? lateIcon : dueIcon);
    }

    private void markExpiring(boolean soon) {
        countdown.pseudoClassStateChanged(EXPIRING, soon);
    }
}
