package org.copydesk.ui.editor;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.prefs.Preferences;
import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewServices;
import org.copydesk.ui.common.TaskExecutor;

/**
 * Sign-in: who am I, and which of my desks I take work from today (remembered per person).
 */
public final class SignInViewModel {

    /** A desk the chosen editor works on, ticked if they take work from it today. */
    public static final class DeskChoice {
        private final Desk desk;
        private final BooleanProperty chosen = new SimpleBooleanProperty(true);

        DeskChoice(Desk desk, boolean chosen) {
            this.desk = desk;
            this.chosen.set(chosen);
        }

        public Desk desk() {
            return desk;
        }

        public BooleanProperty chosenProperty() {
            return chosen;
        }

        @Override
        public String toString() {
            return desk.name();
        }
    }

    /** The outcome of signing in. */
    public record SignedIn(Editor editor, List<String> desks) {
    }

    private final ReviewServices services;
    private final TaskExecutor tasks;
    private final Preferences prefs;
    private final ObservableList<Editor> editors = FXCollections.observableArrayList();
    private final ObjectProperty<Editor> chosen = new SimpleObjectProperty<>();
    private final ObservableList<DeskChoice> desks = FXCollections.observableArrayList();
    private final BooleanProperty loading = new SimpleBooleanProperty(true);
    private final StringProperty error = new SimpleStringProperty("");
    private final BooleanBinding canSignIn;
    private Map<String, Desk> allDesks = Map.of();

    public SignInViewModel(ReviewServices services, TaskExecutor tasks, Preferences prefs) {
        this.services = services;
        this.tasks = tasks;
        this.prefs = prefs;
        chosen.addListener((o, old, e) -> showDesksOf(e));
        canSignIn = Bindings.createBooleanBinding(() -> chosen.get() != null && !loading.get(), chosen, loading);
    }

    public void load() {
        loading.set(true);
        tasks.run("load editors", () -> new Loaded(services.newsroom().editors(), services.newsroom().desks()), loaded -> {
            allDesks = loaded.desks().stream().collect(Collectors.toMap(Desk::id, d -> d));
            editors.setAll(loaded.editors());
            String last = SignInChoice.load(prefs).lastEditor();
            loaded.editors().stream().filter(e -> e.id().equals(last)).findFirst().ifPresent(chosen::set);
            loading.set(false);
        }, failure -> {
            loading.set(false);
            error.set(ConnectionTrouble.describe(failure));
        });
    }

    private record Loaded(List<Editor> editors, List<Desk> desks) {
    }

    private void showDesksOf(Editor editor) {
        if (editor == null) {
            desks.clear();
            return;
        }
        List<String> remembered = SignInChoice.desksOf(prefs, editor.id());
        desks.setAll(editor.desks().stream().filter(allDesks::containsKey)
                .map(id -> new DeskChoice(allDesks.get(id), remembered == null || remembered.contains(id))).toList());
    }

    public void signIn(Consumer<SignedIn> onSignedIn) {
        Editor editor = chosen.get();
        if (editor == null) {
            return;
        }
        List<String> picked = desks.stream().filter(d -> d.chosenProperty().get()).map(d -> d.desk().id()).toList();
        if (picked.isEmpty() && !editor.desks().isEmpty()) {
            error.set("Tick at least one desk to take work from.");
            return;
        }
        new SignInChoice(editor.id()).save(prefs);
        SignInChoice.saveDesks(prefs, editor.id(), picked);
        error.set("");
        onSignedIn.accept(new SignedIn(editor, picked));
    }

    public ObservableList<Editor> editors() {
        return editors;
    }

    public ObjectProperty<Editor> chosenProperty() {
        return chosen;
    }

    public ObservableList<DeskChoice> desks() {
        return desks;
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading;
    }

    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public BooleanBinding canSignInProperty() {
        return canSignIn;
    }
}
