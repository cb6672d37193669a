package org.copydesk.ui.supervisor;

import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
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
import org.copydesk.review.DeskQueue;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.review.Editor;
import org.copydesk.review.QueueOverrides;
import org.copydesk.review.Supervision;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Beside the Queue: what a supervisor does with the chosen article. Give it to a named editor
 * (asked first, as a reassignment is: over capacity and outside the editor's desks each need a
 * yes), move it to the front of the claim order, hold it out of every claim or release the hold,
 * and let the editor it was kept from have it again. Each is one database operation that writes
 * the history with the supervisor and the reason; a refusal is said here, next to the buttons.
 */
public final class QueueActionsViewModel {

    private final DashboardContext context;
    private final QueueViewModel queue;
    private final Runnable afterGiving;
    private final StringProperty reason = new SimpleStringProperty("");
    private final ObservableList<Editor> candidates = FXCollections.observableArrayList();
    private List<String> shownLabels = List.of();
    private final ObjectProperty<Editor> giveTo = new SimpleObjectProperty<>();
    private final AskFirst question = new AskFirst();
    private final AskFirst overCapacity = new AskFirst();
    private final StringProperty error = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final BooleanBinding canGive;
    private final BooleanBinding canMoveToFront;
    private final BooleanBinding canHold;
    private final BooleanBinding canReleaseHold;
    private final BooleanBinding canLetAgain;

    /** @param afterGiving what else to read again once an article was given (the holders' table) */
    QueueActionsViewModel(DashboardContext context, QueueViewModel queue, Runnable afterGiving) {
        this.context = context;
        this.queue = queue;
        this.afterGiving = afterGiving;
        ObjectProperty<Item> selected = queue.selectedProperty();
        canGive = Bindings.createBooleanBinding(() -> !acting.get() && giveTo.get() != null && selected.get() != null
                && (selected.get().place() == DeskQueue.Place.WAITING || selected.get().place() == DeskQueue.Place.HELD),
                acting, giveTo, selected);
        canMoveToFront = placeIs(DeskQueue.Place.WAITING);
        canHold = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && !reason.get().isBlank()
                && (selected.get().place() == DeskQueue.Place.WAITING || selected.get().place() == DeskQueue.Place.SCHEDULED),
                acting, selected, reason);
        canReleaseHold = placeIs(DeskQueue.Place.HELD);
        canLetAgain = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && selected.get().keptFrom() != null,
                acting, selected);
        selected.addListener((o, a, item) -> {
            if (a == null || item == null || a.id() != item.id()) {
                question.cancel();
                overCapacity.cancel();
                error.set("");
            }
            peopleKnown();
        });
    }

    private BooleanBinding placeIs(DeskQueue.Place place) {
        ObjectProperty<Item> selected = queue.selectedProperty();
        return Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && selected.get().place() == place,
                acting, selected);
    }

    /** Whom the chosen article can be given to (the people changed, or another article was chosen). */
    void peopleKnown() {
        Item item = queue.selectedProperty().get();
        List<Editor> fit = item == null ? List.of() : context.recipients(Set.of(item.desk()), null);
        Editor keep = giveTo.get();
        List<String> fitLabels = fit.stream().map(e -> context.recipientLabel(e, item == null ? Set.of() : Set.of(item.desk()))).toList();
        if (!fit.equals(candidates) || !fitLabels.equals(shownLabels)) { // a label changes with presence and load
            shownLabels = fitLabels;
            candidates.setAll(fit);
        }
        giveTo.set(keep == null ? null : fit.stream().filter(e -> e.id().equals(keep.id())).findFirst().orElse(null));
    }

    // --- give it to someone -----------------------------------------------------------------------

    /** Asks whether to give the chosen article to the chosen editor; over capacity asks again. */
    public void giveSelected() {
        Item item = queue.selectedProperty().get();
        Editor to = giveTo.get();
        if (item == null || to == null || acting.get()) {
            return;
        }
        Set<String> desk = Set.of(item.desk());
        boolean outsideDesk = Recipients.lacks(to, desk);
        String where = item.place() == DeskQueue.Place.HELD ? Messages.text("dashboard.queue.ask.held")
                : Messages.text("dashboard.queue.ask.waiting", item.position());
        question.ask(Messages.text("dashboard.queue.ask.give", item.title(), to.displayName(), where)
                        + Recipients.deskNote(to, desk, context::deskName),
                outsideDesk ? Messages.text("dashboard.actions.confirmReassignOutsideDesk", 1, to.displayName())
                        : Messages.text("dashboard.actions.confirmReassign", 1, to.displayName()),
                () -> give(item, to, false, outsideDesk));
    }

    private void give(Item item, Editor to, boolean overrideCapacity, boolean outsideDesk) {
        Supervision supervision = context.services.supervision();
        String supervisor = context.supervisor.id();
        Supervision.Give how = new Supervision.Give(overrideCapacity, outsideDesk, reasonOrNull());
        act("give a queued article", () -> {
            supervision.reassign(item.id(), to.id(), supervisor, how);
            return Messages.text("dashboard.actions.outcome.reassigned", item.title(), to.displayName());
        }, failure -> {
            if (failure instanceof Supervision.OverCapacityException over) {
                overCapacity.ask(over.getMessage(), Messages.text("dashboard.queue.giveAnyway"),
                        () -> give(item, to, true, outsideDesk));
                return true;
            }
            return false;
        }, afterGiving);
    }

    public void confirm() {
        question.confirm();
    }

    public void cancelQuestion() {
        question.cancel();
    }

    // --- the claim order ----------------------------------------------------------------------------

    /** Puts the chosen waiting article first in the claim order. */
    public void moveSelectedToFront() {
        Item item = queue.selectedProperty().get();
        if (item == null || acting.get()) {
            return;
        }
        override("move to the front", item, reasonOrNull(), QueueOverrides::moveToFront,
                Messages.text("dashboard.queue.done.front", item.title()));
    }

    /** Holds the chosen article out of every claim; needs a reason. */
    public void holdSelected() {
        Item item = queue.selectedProperty().get();
        if (item == null || acting.get()) {
            return;
        }
        if (reason.get().isBlank()) {
            error.set(Messages.text("dashboard.queue.reasonNeeded"));
            return;
        }
        override("hold", item, reason.get().strip(), QueueOverrides::hold, Messages.text("dashboard.queue.done.held", item.title()));
    }

    public void releaseSelectedHold() {
        Item item = queue.selectedProperty().get();
        if (item == null || acting.get()) {
            return;
        }
        override("release the hold", item, reasonOrNull(), QueueOverrides::releaseHold,
                Messages.text("dashboard.queue.done.released", item.title()));
    }

    /** Lets the editor the chosen article was kept from claim it again. */
    public void letKeptEditorHaveIt() {
        Item item = queue.selectedProperty().get();
        if (item == null || item.keptFrom() == null || acting.get()) {
            return;
        }
        override("let the editor have it again", item, reasonOrNull(), QueueOverrides::letEditorAgain,
                Messages.text("dashboard.queue.done.letAgain", context.personName(item.keptFrom()), item.title()));
    }

    /** One of {@link QueueOverrides}' acts on an article, by the supervisor, with a reason (or none). */
    @FunctionalInterface
    private interface QueueOverride {
        void apply(QueueOverrides overrides, long articleId, String supervisor, String reason);
    }

    private void override(String what, Item item, String why, QueueOverride call, String done) {
        QueueOverrides overrides = context.services.queueOverrides();
        String supervisor = context.supervisor.id();
        act(what, () -> {
            call.apply(overrides, item.id(), supervisor, why);
            return done;
        }, failure -> false, () -> { });
    }

    // --- running one act ----------------------------------------------------------------------------

    /**
     * Runs one operation off the FX thread; on success the notice says what was done, the reason is
     * cleared and the queue read again. A failure {@code handled} leaves alone is said under the
     * buttons (or in the banner for a lost connection).
     */
    private void act(String what, Callable<String> work, java.util.function.Predicate<Throwable> handled, Runnable andThen) {
        acting.set(true);
        error.set("");
        overCapacity.cancel();
        context.tasks.run(what, work, done -> {
            acting.set(false);
            context.reached();
            reason.set("");
            context.post(Notice.Kind.SUCCESS, done);
            queue.refresh();
            andThen.run();
        }, failure -> {
            acting.set(false);
            if (!handled.test(failure)) {
                context.failed(failure, error);
            }
            queue.refresh();
        });
    }

    private String reasonOrNull() {
        return reason.get() == null || reason.get().isBlank() ? null : reason.get().strip();
    }

    // --- what the view binds to ---------------------------------------------------------------------

    /** How a person reads in the list: with the desk they lack, if they do. */
    public String candidateLabel(Editor e) {
        Item item = queue.selectedProperty().get();
        return context.recipientLabel(e, item == null ? Set.of() : Set.of(item.desk()));
    }

    /** The name of the editor the article is kept from. */
    public String keptFromName(Item item) {
        return context.personName(item.keptFrom());
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public ObservableList<Editor> candidates() {
        return candidates;
    }

    public ObjectProperty<Editor> giveToProperty() {
        return giveTo;
    }

    AskFirst question() {
        return question;
    }

    AskFirst overCapacity() {
        return overCapacity;
    }

    /** The question before giving; empty when none is asked. */
    public ReadOnlyStringProperty questionProperty() {
        return question.questionProperty();
    }

    /** "Cat Diaz already holds 3 of 3 articles. …": asked before going over capacity; empty otherwise. */
    public ReadOnlyStringProperty capacityWarningProperty() {
        return overCapacity.questionProperty();
    }

    public void confirmOverCapacity() {
        overCapacity.confirm();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }

    public BooleanBinding canGiveProperty() {
        return canGive;
    }

    public BooleanBinding canMoveToFrontProperty() {
        return canMoveToFront;
    }

    public BooleanBinding canHoldProperty() {
        return canHold;
    }

    public BooleanBinding canReleaseHoldProperty() {
        return canReleaseHold;
    }

    public BooleanBinding canLetAgainProperty() {
        return canLetAgain;
    }

    /** The chosen article, as the queue shows it. */
    public ObjectProperty<Item> selectedProperty() {
        return queue.selectedProperty();
    }
}
