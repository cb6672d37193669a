package org.copydesk.ui.supervisor;

import javafx.beans.property.ObjectProperty;
import javafx.collections.ObservableList;
import javafx.scene.control.ChoiceBox;
import org.copydesk.review.Desk;
import org.copydesk.ui.common.Messages;

/** The desk picker of the tabs that show one desk at a time (Queue, Stages, Deadlines), over their {@link DeskChoice}. */
final class DeskPicker {

    private DeskPicker() {
    }

    static ChoiceBox<Desk> of(String id, ObservableList<Desk> desks, ObjectProperty<Desk> chosen) {
        ChoiceBox<Desk> desk = new ChoiceBox<>(desks);
        desk.setId(id);
        desk.setAccessibleText(Messages.text("dashboard.queue.desk.accessible"));
        desk.setConverter(StagesPage.named(Desk::name, ""));
        desk.valueProperty().bindBidirectional(chosen);
        return desk;
    }
}
