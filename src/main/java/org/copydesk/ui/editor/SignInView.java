package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.copydesk.review.Editor;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** Who am I, and which desks today. */
public final class SignInView extends StackPane {

    private final SignInViewModel model;
    private final Consumer<SignInViewModel.SignedIn> onSignedIn;
    private final FlowPane deskBoxes = new FlowPane(10, 8);

    public SignInView(SignInViewModel model, String connectionNote, Consumer<SignInViewModel.SignedIn> onSignedIn) {
        this.model = model;
        this.onSignedIn = onSignedIn;
        createView(connectionNote);
        initListeners();
    }

    private void createView(String connectionNote) {
        Label logo = new Label("Copydesk", new FontIcon(Feather.FILE_TEXT));
        logo.getStyleClass().addAll(Styles.TITLE_1, "app-name");
        Label lead = new Label("Review work, handed out fairly.");
        lead.getStyleClass().add(Styles.TEXT_MUTED);

        ComboBox<Editor> who = new ComboBox<>(model.editors());
        who.setId("editor-choice");
        who.setPromptText("Choose your name");
        who.setMaxWidth(Double.MAX_VALUE);
        who.valueProperty().bindBidirectional(model.chosenProperty());
        who.setConverter(new StringConverter<>() {
            @Override
            public String toString(Editor e) {
                return e == null ? "" : e.displayName() + (e.role().canSupervise() ? " (" + e.role().name().toLowerCase() + ")" : "");
            }

            @Override
            public Editor fromString(String s) {
                return null;
            }
        });
        who.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Editor e, boolean empty) {
                super.updateItem(e, empty);
                setText(empty || e == null ? null : who.getConverter().toString(e));
            }
        });

        Label desksLabel = new Label("Desks I take work from today");
        deskBoxes.setId("desk-choices");

        Label error = new Label();
        error.setId("sign-in-error");
        error.setWrapText(true);
        error.getStyleClass().add(Styles.DANGER);
        error.textProperty().bind(model.errorProperty());
        error.visibleProperty().bind(model.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());

        Button signIn = new Button("Sign in", new FontIcon(Feather.LOG_IN));
        signIn.setId("sign-in");
        signIn.setDefaultButton(true);
        signIn.getStyleClass().add(Styles.ACCENT);
        signIn.setMaxWidth(Double.MAX_VALUE);
        signIn.disableProperty().bind(model.canSignInProperty().not());
        signIn.setOnAction(e -> model.signIn(onSignedIn));

        Label note = new Label(connectionNote);
        note.setWrapText(true);
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);

        VBox card = new VBox(12, logo, lead, new Label("Who are you?"), who, desksLabel, deskBoxes, error, signIn, note);
        card.getStyleClass().add("sign-in-card");
        card.setMaxSize(440, VBox.USE_PREF_SIZE);
        card.setPadding(new Insets(28));
        card.setAlignment(Pos.TOP_LEFT);
        getChildren().add(card);
        getStyleClass().add("sign-in-background");
    }

    private void initListeners() {
        model.desks().addListener((javafx.collections.ListChangeListener<SignInViewModel.DeskChoice>) c -> renderDesks());
        renderDesks();
    }

    private void renderDesks() {
        deskBoxes.getChildren().setAll(model.desks().stream().map(d -> {
            CheckBox box = new CheckBox(d.desk().name());
            box.setId("desk-" + d.desk().id());
            box.selectedProperty().bindBidirectional(d.chosenProperty());
            return box;
        }).toList());
        if (model.desks().isEmpty() && model.chosenProperty().get() != null) {
            Label none = new Label("No desks yet: a supervisor assigns them.");
            none.getStyleClass().add(Styles.TEXT_MUTED);
            deskBoxes.getChildren().add(none);
        }
    }
}
