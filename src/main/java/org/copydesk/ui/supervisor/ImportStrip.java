package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * A running import's progress, under the toolbar; it stays with the last summary until the next
 * import. Also makes the toolbar's Import button. Binds to {@link ImportViewModel}.
 */
final class ImportStrip extends HBox {

    ImportStrip(ImportViewModel model) {
        super(10);
        ProgressBar bar = new ProgressBar();
        bar.setId("import-progress");
        bar.setAccessibleText(Messages.text("dashboard.import.progress.accessible"));
        bar.progressProperty().bind(model.progressProperty());
        bar.setPrefWidth(220);
        Label status = new Label();
        status.setId("import-status");
        status.textProperty().bind(model.statusProperty());
        Button cancel = new Button(Messages.text("dashboard.import.stop"));
        cancel.setId("import-stop");
        cancel.getStyleClass().add(Styles.SMALL);
        cancel.visibleProperty().bind(model.importingProperty());
        cancel.setOnAction(e -> model.cancel());
        getChildren().addAll(bar, status, cancel);
        setAlignment(Pos.CENTER_LEFT);
        setPadding(new Insets(6, 16, 6, 16));
        getStyleClass().add("import-strip");
        visibleProperty().bind(model.statusProperty().isNotEmpty());
        managedProperty().bind(visibleProperty());
    }

    /** "Import…": chooses a JSON or CSV file and imports it. */
    static Button button(ImportViewModel model) {
        Button importButton = new Button(Messages.text("dashboard.import.button"), new FontIcon(Feather.UPLOAD));
        importButton.setId("import");
        importButton.getStyleClass().add(Styles.BUTTON_OUTLINED);
        importButton.setTooltip(new Tooltip(Messages.text("dashboard.import.tooltip")));
        importButton.disableProperty().bind(model.importingProperty());
        importButton.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle(Messages.text("dashboard.import.chooser.title"));
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(Messages.text("dashboard.import.jsonOrCsv"),
                    "*.json", "*.ndjson", "*.jsonl", "*.csv"));
            java.io.File file = chooser.showOpenDialog(importButton.getScene().getWindow());
            if (file != null) {
                model.importFile(file.toPath());
            }
        });
        return importButton;
    }
}
