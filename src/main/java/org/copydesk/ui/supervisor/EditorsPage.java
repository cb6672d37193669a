package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.numberColumn;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** The "Editors" page: each person's presence, load and work today. Binds to {@link HealthViewModel}. */
final class EditorsPage extends VBox {

    EditorsPage(HealthViewModel model) {
        super(10);
        TableView<HealthViewModel.EditorRow> people = new TableView<>(model.editorRows());
        people.setId("editors");
        people.setPlaceholder(muted(Messages.text("dashboard.editors.empty")));
        people.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<HealthViewModel.EditorRow, HealthViewModel.EditorRow> presence =
                new TableColumn<>(Messages.text("dashboard.editors.status.column"));
        presence.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        presence.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(HealthViewModel.EditorRow e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                FontIcon dot = new FontIcon(Feather.CIRCLE);
                dot.getStyleClass().add("presence-" + e.presence().name().toLowerCase(java.util.Locale.ROOT));
                setGraphic(dot);
                setText(e.presence().label());
            }
        });
        presence.setPrefWidth(100);
        TableColumn<HealthViewModel.EditorRow, HealthViewModel.EditorRow> load =
                new TableColumn<>(Messages.text("dashboard.editors.load.column"));
        load.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        load.setCellFactory(col -> new TableCell<>() {
            private final ProgressBar bar = new ProgressBar();
            private final Label text = new Label();
            private final HBox box = new HBox(8, bar, text);

            {
                bar.setPrefWidth(120);
                box.setAlignment(Pos.CENTER_LEFT);
            }

            @Override
            protected void updateItem(HealthViewModel.EditorRow e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setGraphic(null);
                    return;
                }
                bar.setProgress(e.capacity() == 0 ? 0 : Math.min(1.0, (double) e.held() / e.capacity()));
                bar.pseudoClassStateChanged(HoldersPage.EXPIRING, e.held() > e.capacity());
                text.setText(e.load());
                setGraphic(box);
            }
        });
        load.setPrefWidth(200);
        people.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.editors.editor.column"), 180, HealthViewModel.EditorRow::name),
                textColumn(Messages.text("dashboard.editors.role.column"), 90, r -> DataWords.role(r.role())),
                presence,
                textColumn(Messages.text("dashboard.editors.lastSeen.column"), 110, HealthViewModel.EditorRow::lastSeen),
                load,
                Tables.explained(
                        numberColumn(Messages.text("dashboard.editors.finishedToday.column"), HealthViewModel.EditorRow::finishedToday),
                        Messages.text("dashboard.finishedToday.means"))));
        Label note = new Label(Messages.text("dashboard.editors.presenceNote"));
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        VBox.setVgrow(people, Priority.ALWAYS);
        getChildren().addAll(people, note);
        Tables.padded(this);
    }
}
