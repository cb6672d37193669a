package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** Small pieces the dashboard's pages build their tables and forms from. */
final class Tables {

    private Tables() {
    }

    static <T> TableColumn<T, String> textColumn(String title, double width, Function<T, String> value) {
        TableColumn<T, String> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(value.apply(f.getValue())));
        return c;
    }

    /**
     * A column of texts whose both ends matter (a file's folder and its name and line): a text
     * too long for the column loses its middle, "wire/2026/…/feed-0600.jsonl:7", and its cell's
     * tooltip says it whole.
     */
    static <T> TableColumn<T, String> middleCutColumn(String title, double width, Function<T, String> value) {
        TableColumn<T, String> c = textColumn(title, width, value);
        c.setCellFactory(col -> new TableCell<>() {
            private final Tooltip whole = new Tooltip();

            {
                setTextOverrun(OverrunStyle.CENTER_ELLIPSIS);
                setEllipsisString("\u2026");
            }

            @Override
            protected void updateItem(String text, boolean empty) {
                super.updateItem(text, empty);
                setText(empty ? null : text);
                whole.setText(text);
                setTooltip(empty || text == null || text.isEmpty() ? null : whole);
            }
        });
        return c;
    }

    static <T> TableColumn<T, Number> numberColumn(String title, ToIntFunction<T> value) {
        TableColumn<T, Number> c = new TableColumn<>(title);
        c.setPrefWidth(100);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.applyAsInt(f.getValue())));
        c.getStyleClass().add("number-column");
        return c;
    }

    /** A column whose header explains what it counts: an info mark beside its title, the words in its tooltip. */
    static <T, V> TableColumn<T, V> explained(TableColumn<T, V> c, String what) {
        Label mark = new Label(null, new FontIcon(Feather.INFO));
        mark.setTooltip(new Tooltip(what));
        mark.setAccessibleText(what);
        c.setGraphic(mark);
        return c;
    }

    static Label muted(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Styles.TEXT_MUTED);
        return l;
    }

    /**
     * An error said where it happened: under the control or table that failed, shown only while
     * there is something to say, and announced to screen readers as it appears.
     */
    static Label inlineError(String id, ObservableStringValue text) {
        Label l = new Label();
        l.setId(id);
        l.setWrapText(true);
        l.setGraphic(new FontIcon(Feather.ALERT_CIRCLE));
        l.getStyleClass().addAll("inline-error", Styles.DANGER);
        l.textProperty().bind(text);
        l.setAccessibleHelp(Messages.text("dashboard.inlineError.accessible"));
        l.visibleProperty().bind(l.textProperty().isNotEmpty());
        l.managedProperty().bind(l.visibleProperty());
        return l;
    }

    /** A page's padding, the same on every tab. */
    static <T extends VBox> T padded(T page) {
        page.setPadding(new Insets(12, 14, 12, 14));
        return page;
    }

    /**
     * The table's selected row and the model's chosen one, kept the same both ways: a click chooses,
     * and a choice the model makes (or drops: the row went) shows in the table.
     */
    static <T> void selectionFollows(TableView<T> table, ObjectProperty<T> chosen) {
        table.getSelectionModel().selectedItemProperty().addListener((o, a, i) -> {
            if (i != chosen.get()) {
                chosen.set(i);
            }
        });
        chosen.addListener((o, a, i) -> {
            if (i == null) {
                table.getSelectionModel().clearSelection();
            } else if (table.getSelectionModel().getSelectedItem() != i) {
                table.getSelectionModel().select(i);
            }
        });
    }
}
