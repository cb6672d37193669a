package org.copydesk.ui.supervisor;

import java.util.function.Function;
import javafx.scene.control.Button;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** The controls the action panels beside the chosen articles share (Who holds what, Queue, Deadlines). */
final class ActionControls {

    private ActionControls() {
    }

    /** A full-width action button; {@code text} and {@code tooltip} are message keys. */
    static Button button(String id, String text, Feather icon, String tooltip) {
        Button b = new Button(Messages.text(text), new FontIcon(icon));
        b.setId(id);
        b.setMaxWidth(Double.MAX_VALUE);
        b.setTooltip(new Tooltip(Messages.text(tooltip)));
        return b;
    }

    /** A person in the "give to" list, in {@code label}'s words; {@code whenEmpty} when none is chosen. */
    static ListCell<Editor> personCell(Function<Editor, String> label, String whenEmpty) {
        return new ListCell<>() {
            @Override
            protected void updateItem(Editor e, boolean empty) {
                super.updateItem(e, empty);
                setText(empty || e == null ? whenEmpty : label.apply(e));
            }
        };
    }
}
