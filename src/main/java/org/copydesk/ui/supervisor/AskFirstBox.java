package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * An {@link AskFirst} on screen, next to the buttons that asked it: the question, a button that
 * answers yes (it takes the focus, so Enter answers) and Cancel; Escape cancels too. Shown only
 * while a question is asked.
 */
final class AskFirstBox extends VBox {

    /**
     * @param ids        the ids of the question's label, the yes button and the cancel button
     * @param styleClass how the box looks ({@code action-question}, {@code capacity-warning})
     * @param yesStyle   the yes button's colour ({@link Styles#DANGER}, {@link Styles#WARNING})
     */
    AskFirstBox(AskFirst ask, String[] ids, String styleClass, Ikon icon, String yesStyle) {
        super(6);
        Label question = new Label();
        question.setId(ids[0]);
        question.setWrapText(true);
        question.setGraphic(new FontIcon(icon));
        question.textProperty().bind(ask.questionProperty());
        Button yes = new Button();
        yes.setId(ids[1]);
        yes.textProperty().bind(ask.answerProperty());
        yes.accessibleTextProperty().bind(Bindings.when(ask.answerProperty().isEmpty()).then(Messages.text("dashboard.actions.yes"))
                .otherwise(ask.answerProperty()));
        yes.getStyleClass().addAll(Styles.SMALL, yesStyle);
        yes.setOnAction(e -> ask.confirm());
        Button no = new Button(Messages.text("dashboard.actions.cancel"));
        no.setId(ids[2]);
        no.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        no.setOnAction(e -> ask.cancel());
        getChildren().addAll(question, new HBox(6, yes, no));
        getStyleClass().add(styleClass);
        visibleProperty().bind(ask.questionProperty().isNotEmpty());
        managedProperty().bind(visibleProperty());
        setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                ask.cancel();
                e.consume();
            }
        });
        ask.questionProperty().addListener((o, a, q) -> {
            if (!q.isEmpty()) {
                yes.requestFocus(); // the keyboard is where the question is
            }
        });
    }
}
