package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** Who am I (my own database account), then which desks today. */
public final class SignInView extends StackPane {

    private final SignInViewModel model;
    private final Consumer<SignInViewModel.SignedIn> onSignedIn;
    private final VBox choices = new VBox();

    public SignInView(SignInViewModel model, Consumer<SignInViewModel.SignedIn> onSignedIn) {
        this.model = model;
        this.onSignedIn = onSignedIn;
        createView();
        initListeners();
    }

    private void createView() {
        Label logo = new Label(Messages.text("common.appName"), new FontIcon(Feather.FILE_TEXT));
        logo.getStyleClass().addAll(Styles.TITLE_1, "app-name");
        Label lead = new Label(Messages.text("signIn.tagline"));
        lead.getStyleClass().add(Styles.TEXT_MUTED);

        TextField user = new TextField();
        user.setId("user");
        user.setPromptText(Messages.text("signIn.userName.prompt"));
        user.textProperty().bindBidirectional(model.userProperty());
        PasswordField password = new PasswordField();
        password.setId("password");
        password.setPromptText(Messages.text("signIn.password.prompt"));
        password.textProperty().bindBidirectional(model.passwordProperty());
        Button signIn = new Button(Messages.text("signIn.signIn"), new FontIcon(Feather.LOG_IN));
        signIn.setId("sign-in");
        signIn.getStyleClass().add(Styles.ACCENT);
        signIn.setMaxWidth(Double.MAX_VALUE);
        signIn.disableProperty().bind(model.canSignInProperty().not());
        signIn.setOnAction(e -> model.signIn());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(model.busyProperty());
        busy.managedProperty().bind(busy.visibleProperty()); // the button lines up with the fields until then
        HBox signInRow = new HBox(8, signIn, busy);
        HBox.setHgrow(signIn, Priority.ALWAYS);
        signInRow.setAlignment(Pos.CENTER_LEFT);
        Label waiting = new Label(); // words beside the spinner: what the sign-in waits for
        waiting.setId("sign-in-waiting");
        waiting.setWrapText(true);
        waiting.getStyleClass().add(Styles.TEXT_MUTED);
        waiting.textProperty().bind(model.waitingProperty());
        waiting.visibleProperty().bind(model.waitingProperty().isNotEmpty());
        waiting.managedProperty().bind(waiting.visibleProperty());
        VBox credentials = new VBox(8, new Label(Messages.text("signIn.userName")), user,
                new Label(Messages.text("signIn.password")), password, signInRow, waiting);
        credentials.visibleProperty().bind(model.editorProperty().isNull());
        credentials.managedProperty().bind(credentials.visibleProperty());
        // Enter signs in on the first step and starts on the second: only the visible step's button is default.
        signIn.defaultButtonProperty().bind(credentials.visibleProperty());
        password.setOnAction(e -> model.signIn());

        Label hello = new Label();
        hello.getStyleClass().add(Styles.TITLE_4);
        hello.textProperty().bind(Bindings.createStringBinding(() -> model.editorProperty().get() == null ? ""
                : Messages.text("signIn.hello", model.editorProperty().get().displayName()), model.editorProperty()));
        choices.setId("desk-choices");
        Button start = new Button(Messages.text("signIn.start"), new FontIcon(Feather.ARROW_RIGHT));
        start.setId("start");
        start.getStyleClass().add(Styles.ACCENT);
        start.setMaxWidth(Double.MAX_VALUE);
        start.setOnAction(e -> model.start(onSignedIn));
        VBox desks = new VBox(10, hello, new Label(Messages.text("editor.workChoice.title")), choices, start);
        desks.visibleProperty().bind(model.editorProperty().isNotNull());
        desks.managedProperty().bind(desks.visibleProperty());
        start.defaultButtonProperty().bind(desks.visibleProperty());
        // the password field disappears on success; give Enter to Start
        model.editorProperty().addListener((o, was, now) -> {
            if (now != null) {
                start.requestFocus(); // Enter starts at once; Shift+Tab reaches the ticks
            }
        });
        model.workProperty().addListener((o, was, now) -> {
            if (now != null) {
                start.disableProperty().bind(now.busyProperty());
            }
        });
        model.straightInProperty().addListener((o, was, now) -> {
            if (now) {
                model.start(onSignedIn);
            }
        });

        Label error = new Label();
        error.setId("sign-in-error");
        error.setWrapText(true);
        error.getStyleClass().add(Styles.DANGER);
        error.textProperty().bind(model.errorProperty());
        error.visibleProperty().bind(model.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());

        Label where = new Label();
        where.textProperty().bind(model.whereProperty());
        where.setWrapText(true);
        where.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Label demo = new Label();
        demo.textProperty().bind(model.demoHintProperty());
        demo.setId("demo-hint");
        demo.setWrapText(true);
        demo.getStyleClass().addAll(Styles.TEXT_SMALL, "demo-hint");
        demo.visibleProperty().bind(model.demoHintProperty().isNotEmpty());
        demo.managedProperty().bind(demo.visibleProperty());

        VBox card = new VBox(12, logo, lead, credentials, desks, error, where, demo);
        card.getStyleClass().add("sign-in-card");
        card.setMaxSize(440, VBox.USE_PREF_SIZE);
        card.setPadding(new Insets(28));
        card.setAlignment(Pos.TOP_LEFT);
        getChildren().add(card);
        getStyleClass().add("sign-in-background");
    }

    private void initListeners() {
        model.workProperty().addListener((o, was, now) -> renderChoices());
        model.editorProperty().addListener((o, was, now) -> renderChoices());
    }

    /** The desks and stages to tick, or "no desks yet" for someone without any. */
    private void renderChoices() {
        WorkChoiceModel work = model.workProperty().get();
        if (work == null || model.editorProperty().get() == null) {
            choices.getChildren().clear();
            return;
        }
        if (work.picks().isEmpty() && work.errorProperty().get().isEmpty()) {
            Label none = new Label(Messages.text("signIn.desks.empty"));
            none.getStyleClass().add(Styles.TEXT_MUTED);
            choices.getChildren().setAll(none);
            return;
        }
        choices.getChildren().setAll(new WorkChoicePane(work, () -> model.start(onSignedIn)));
    }
}
