package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.review.Stage;
import org.copydesk.review.StageBoard;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * An admin's setup of the chosen desk's chain, beside its board: add a stage, rename it, its lease
 * length, entered always or only when asked, four eyes, taken by the desk's editors or by named
 * people; move it up or down; remove it, asking where its articles go when it holds any. Each change
 * is the database's own operation (set_desk_stage, set_stage_takers, order_desk_stages,
 * remove_desk_stage), which checks the admin's role and keeps the chain whole; a refusal is said in
 * one line under the form.
 */
public final class StageSetupViewModel {

    private final DashboardContext context;
    private final StageBoardViewModel board;
    private final ObjectProperty<Stage> selected = new SimpleObjectProperty<>();
    private final StringProperty id = new SimpleStringProperty("");
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty leaseMinutes = new SimpleStringProperty("");
    private final BooleanProperty whenAsked = new SimpleBooleanProperty();
    private final BooleanProperty fourEyes = new SimpleBooleanProperty();
    private final BooleanProperty namedTakers = new SimpleBooleanProperty();
    private final StringProperty takers = new SimpleStringProperty("");
    private final StringProperty error = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final AskFirst removal = new AskFirst();
    private final ObservableList<Stage> removeTargets = FXCollections.observableArrayList();
    private final ObjectProperty<Stage> removeTo = new SimpleObjectProperty<>();
    private final BooleanBinding canSave;
    private final BooleanBinding canChangeSelected;
    private final StageTakerPicker takerPicker;

    StageSetupViewModel(DashboardContext context, StageBoardViewModel board) {
        this.context = context;
        this.board = board;
        selected.addListener((o, a, s) -> fill(s));
        board.deskProperty().addListener((o, a, d) -> selected.set(null));
        board.afterEachRead(() -> {
            Stage was = selected.get();
            selected.set(was == null ? null : board.chain().stream().filter(s -> s.id().equals(was.id())).findFirst().orElse(null));
        });
        canSave = Bindings.createBooleanBinding(() -> !acting.get() && board.deskProperty().get() != null
                && !id.get().isBlank() && !name.get().isBlank(), acting, id, name, board.deskProperty());
        canChangeSelected = selected.isNotNull().and(acting.not());
        takerPicker = new StageTakerPicker(context, board, takers);
    }

    /** The people a stage with named takers is taken by, picked from everyone (the form's takers). */
    StageTakerPicker takerPicker() {
        return takerPicker;
    }

    /** Only an admin changes a chain (the database refuses anyone else): the setup shows only to admins. */
    public boolean shown() {
        return context.supervisor.role() == Role.ADMIN;
    }

    /** The form for a new stage (nothing chosen in the chain). */
    public void newStage() {
        selected.set(null);
        fill(null);
    }

    private void fill(Stage s) {
        removal.cancel();
        error.set("");
        id.set(s == null ? "" : s.id());
        name.set(s == null ? "" : s.name());
        leaseMinutes.set(s == null || s.leaseLength() == null ? "" : Long.toString(s.leaseLength().toMinutes()));
        whenAsked.set(s != null && s.whenAsked());
        fourEyes.set(s != null && s.fourEyes());
        namedTakers.set(s != null && s.namedTakers());
        takers.set(s == null ? "" : String.join(", ", s.takers()));
    }

    /** Adds the stage in the form (at the end of the chain) or saves the chosen one's changes, and who takes it. */
    public void save() {
        if (!canSave.get()) {
            return;
        }
        Duration lease;
        try {
            lease = leaseMinutes.get().isBlank() ? null : Duration.ofMinutes(Long.parseLong(leaseMinutes.get().strip()));
        } catch (NumberFormatException e) {
            error.set(Messages.text("dashboard.stages.setup.leaseNotANumber"));
            return;
        }
        String desk = board.deskProperty().get().id();
        String stageId = id.get().strip();
        ReviewStages.Settings settings = new ReviewStages.Settings(desk, stageId, name.get().strip(), null, lease, whenAsked.get(),
                fourEyes.get(), namedTakers.get());
        List<String> named = namedTakers.get() ? takerIds() : List.of();
        boolean isNew = selected.get() == null;
        String admin = context.supervisor.id();
        act("set a stage", () -> {
            ReviewStages stages = context.services.stages();
            stages.set(admin, settings);
            if (settings.namedTakers()) {
                stages.setTakers(admin, desk, stageId, named);
            }
            return Messages.text(isNew ? "dashboard.stages.done.added" : "dashboard.stages.done.saved", settings.name());
        });
    }

    /** The people named in the form, by id or by name as the dashboard knows them. */
    private List<String> takerIds() {
        List<String> ids = new ArrayList<>();
        for (String part : Arrays.stream(takers.get().split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList()) {
            ids.add(context.people().stream().filter(e -> e.id().equals(part) || e.displayName().equalsIgnoreCase(part))
                    .map(Editor::id).findFirst().orElse(part.toLowerCase(Locale.ROOT)));
        }
        return ids;
    }

    /** Moves the chosen stage one place earlier ({@code -1}) or later ({@code 1}) in the chain. */
    public void move(int by) {
        Stage s = selected.get();
        List<String> order = new ArrayList<>(board.chain().stream().map(Stage::id).toList());
        int at = s == null ? -1 : order.indexOf(s.id());
        if (at < 0 || at + by < 0 || at + by >= order.size() || acting.get()) {
            return;
        }
        order.add(at + by, order.remove(at));
        String desk = board.deskProperty().get().id();
        String admin = context.supervisor.id();
        act("order the stages", () -> {
            context.services.stages().order(admin, desk, order);
            return Messages.text("dashboard.stages.done.ordered", s.name());
        });
    }

    /**
     * Asks before removing the chosen stage. When articles are in review there, the question asks
     * where they go (another stage of the desk; the first other one is offered), as the database
     * requires; the desk's last stage takes its articles back to a desk without stages.
     */
    public void askToRemove() {
        Stage s = selected.get();
        if (s == null || acting.get()) {
            return;
        }
        int holding = board.columns().stream().filter(c -> c.stage().id().equals(s.id())).mapToInt(StageBoard.Column::holding)
                .sum();
        List<Stage> others = board.chain().stream().filter(o -> !o.id().equals(s.id())).toList();
        boolean askWhere = holding > 0 && !others.isEmpty();
        removeTargets.setAll(askWhere ? others : List.of());
        removeTo.set(askWhere ? others.get(0) : null);
        String question = askWhere ? Messages.text("dashboard.stages.ask.removeHolding", s.name(), holding)
                : Messages.text(others.isEmpty() ? "dashboard.stages.ask.removeLast" : "dashboard.stages.ask.remove", s.name());
        removal.ask(question, Messages.text("dashboard.stages.remove.yes"), () -> remove(s));
    }

    private void remove(Stage s) {
        String to = removeTo.get() == null ? null : removeTo.get().id();
        String desk = board.deskProperty().get().id();
        String admin = context.supervisor.id();
        removeTargets.clear();
        act("remove a stage", () -> {
            context.services.stages().remove(admin, desk, s.id(), to);
            return Messages.text("dashboard.stages.done.removed", s.name());
        });
    }

    public void confirmRemoval() {
        removal.confirm();
    }

    public void cancelRemoval() {
        removal.cancel();
        removeTargets.clear();
    }

    private void act(String what, Callable<String> work) {
        acting.set(true);
        error.set("");
        context.tasks.run(what, work, done -> {
            acting.set(false);
            context.reached();
            context.post(Notice.Kind.SUCCESS, done);
            board.refresh();
        }, failure -> {
            acting.set(false);
            context.failed(failure, error);
            board.refresh();
        });
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public ObjectProperty<Stage> selectedProperty() {
        return selected;
    }

    public StringProperty idProperty() {
        return id;
    }

    public StringProperty nameProperty() {
        return name;
    }

    /** Minutes; empty: the desk's lease length. */
    public StringProperty leaseMinutesProperty() {
        return leaseMinutes;
    }

    public BooleanProperty whenAskedProperty() {
        return whenAsked;
    }

    public BooleanProperty fourEyesProperty() {
        return fourEyes;
    }

    public BooleanProperty namedTakersProperty() {
        return namedTakers;
    }

    /** The people who take a stage with named takers: ids or names, separated by commas. */
    public StringProperty takersProperty() {
        return takers;
    }

    public BooleanBinding canSaveProperty() {
        return canSave;
    }

    public BooleanBinding canChangeSelectedProperty() {
        return canChangeSelected;
    }

    /** The database's refusal of the last change, in one line. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    /** Where the removed stage's articles may go (empty when it holds none). */
    public ObservableList<Stage> removeTargets() {
        return removeTargets;
    }

    public ObjectProperty<Stage> removeToProperty() {
        return removeTo;
    }

    AskFirst removal() {
        return removal;
    }
}
