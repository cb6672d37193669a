package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.supervisor.LeaseBatch.Outcome;

/**
 * The side panel of "Who holds what": force release, reassign and extend for the selected leases,
 * one or many. Force release and reassign ask first, naming each lease's holder and title; each
 * lease is then one call to the database's operation, and what happened to each is said in plain
 * words (see {@link LeaseBatch}). Errors stay here, next to the buttons that met them.
 */
public final class LeaseActionsViewModel {

    /** How many titles a question names before it says "and N more". */
    private static final int NAMED_IN_QUESTION = 4;

    private final DashboardContext context;
    private final HoldersViewModel holders;
    private final ObservableList<Editor> reassignCandidates = FXCollections.observableArrayList();
    private List<String> shownLabels = List.of();
    private final ObjectProperty<Editor> reassignTo = new SimpleObjectProperty<>();
    private final StringProperty reason = new SimpleStringProperty("");
    private final AskFirst question = new AskFirst();
    private final AskFirst overCapacity = new AskFirst();
    private final StringProperty error = new SimpleStringProperty("");
    private final ObservableList<Outcome> outcomes = FXCollections.observableArrayList();
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final BooleanBinding canAct;
    private final BooleanBinding canForceRelease;
    private final BooleanBinding canReassign;
    private List<HolderRow> askedAbout = List.of();
    private List<Long> selectedIds = List.of();
    private Set<String> selectedDesks = Set.of();

    LeaseActionsViewModel(DashboardContext context, HoldersViewModel holders) {
        this.context = context;
        this.holders = holders;
        ObservableList<HolderRow> selection = holders.selection();
        canAct = Bindings.createBooleanBinding(() -> !selection.isEmpty() && !acting.get(), selection, acting);
        canForceRelease = Bindings.createBooleanBinding(() -> canAct.get() && !reason.get().isBlank(), canAct, reason);
        canReassign = Bindings.createBooleanBinding(() -> canAct.get() && reassignTo.get() != null, canAct, reassignTo);
        selection.addListener((ListChangeListener<HolderRow>) c -> onSelectionChanged());
        reason.addListener((o, a, b) -> error.set(""));
    }

    /** The people known now; called once they are loaded. */
    void peopleKnown() {
        onSelectionChanged();
    }

    private void onSelectionChanged() {
        List<HolderRow> rows = List.copyOf(holders.selection());
        if (!sameLeases(rows, askedAbout)) {
            cancelQuestion(); // the question named other leases
            cancelOverCapacity();
        }
        List<Long> ids = rows.stream().map(HolderRow::id).toList();
        if (!ids.equals(selectedIds)) {
            selectedIds = ids;
            error.set(""); // said about other leases; a refresh of the same ones keeps it
        }
        if (rows.isEmpty()) {
            reassignCandidates.clear();
            reassignTo.set(null);
            return;
        }
        Set<String> desks = rows.stream().map(HolderRow::desk).collect(Collectors.toSet());
        selectedDesks = desks;
        Set<String> holdersOfAll = rows.stream().map(HolderRow::editorId).collect(Collectors.toSet());
        String onlyHolder = holdersOfAll.size() == 1 ? holdersOfAll.iterator().next() : null;
        Editor keep = reassignTo.get();
        List<Editor> fit = context.recipients(desks, onlyHolder);
        List<String> fitLabels = fit.stream().map(e -> context.recipientLabel(e, desks)).toList();
        if (!fit.equals(reassignCandidates) || !fitLabels.equals(shownLabels)) { // a label changes with presence and load
            shownLabels = fitLabels;
            reassignCandidates.setAll(fit);
        }
        reassignTo.set(keep == null ? null : fit.stream().filter(e -> e.id().equals(keep.id())).findFirst().orElse(null));
    }

    private static boolean sameLeases(List<HolderRow> a, List<HolderRow> b) {
        return a.stream().map(HolderRow::id).toList().equals(b.stream().map(HolderRow::id).toList());
    }

    // --- force release ------------------------------------------------------------------------------

    /** Asks whether to end the selected leases now; each holder is told, with the reason. */
    public void forceReleaseSelected() {
        List<HolderRow> rows = List.copyOf(holders.selection());
        if (rows.isEmpty() || acting.get()) {
            return;
        }
        if (reason.get().isBlank()) {
            error.set(Messages.text("dashboard.actions.reasonNeeded", holderNames(rows)));
            return;
        }
        String why = reason.get().strip();
        ask(rows, rows.size() == 1
                ? Messages.text("dashboard.actions.askRelease", rows.get(0).title(), rows.get(0).editorName())
                : Messages.text("dashboard.actions.askReleaseMany", rows.size(), named(rows)),
                Messages.text("dashboard.actions.confirmRelease", rows.size()),
                () -> run(rows, LeaseBatch.forceRelease(why), () -> reason.set("")));
    }

    // --- reassign -----------------------------------------------------------------------------------

    /** Asks whether to give the selected articles to the chosen editor; over capacity asks again. */
    public void reassignSelected() {
        List<HolderRow> rows = List.copyOf(holders.selection());
        Editor to = reassignTo.get();
        if (rows.isEmpty() || to == null || acting.get()) {
            return;
        }
        boolean outsideDesk = Recipients.lacks(to, selectedDesks);
        String text = (rows.size() == 1
                ? Messages.text("dashboard.actions.askReassign", rows.get(0).title(), to.displayName(), rows.get(0).editorName())
                : Messages.text("dashboard.actions.askReassignMany", rows.size(), to.displayName(), named(rows)))
                + Recipients.deskNote(to, selectedDesks, context::deskName);
        ask(rows, text, outsideDesk ? Messages.text("dashboard.actions.confirmReassignOutsideDesk", rows.size(), to.displayName())
                : Messages.text("dashboard.actions.confirmReassign", rows.size(), to.displayName()),
                () -> reassign(rows, to, false, outsideDesk));
    }

    private void reassign(List<HolderRow> rows, Editor to, boolean overrideCapacity, boolean outsideDesk) {
        String why = reason.get().strip();
        run(rows, LeaseBatch.reassign(to, overrideCapacity, outsideDesk, why.isEmpty() ? null : why), () -> reason.set(""));
    }

    /** How a person reads in the reassign list: with the desks they lack, if any. */
    public String candidateLabel(Editor e) {
        return context.recipientLabel(e, selectedDesks);
    }

    /** The supervisor read the capacity warning and reassigns anyway. */
    public void confirmOverCapacity() {
        overCapacity.confirm();
    }

    public void cancelOverCapacity() {
        overCapacity.cancel();
    }

    // --- extend -------------------------------------------------------------------------------------

    /** Gives the holders more time (within each desk's maximum hold). */
    public void extendSelected(Duration by) {
        List<HolderRow> rows = List.copyOf(holders.selection());
        if (rows.isEmpty() || acting.get()) {
            return;
        }
        run(rows, LeaseBatch.extend(by, context.zone), () -> { });
    }

    // --- asking first -------------------------------------------------------------------------------

    private void ask(List<HolderRow> rows, String text, String yes, Runnable action) {
        cancelOverCapacity();
        askedAbout = rows;
        question.ask(text, yes, action);
    }

    /** The supervisor answered yes to {@link #questionProperty()}. */
    public void confirm() {
        question.confirm();
    }

    public void cancelQuestion() {
        question.cancel();
    }

    private static String holderNames(List<HolderRow> rows) {
        List<String> names = rows.stream().map(HolderRow::editorName).distinct().toList();
        return Formats.list(names);
    }

    /** "“Budget vote” from Ann Kowalski, “Cup draw” from Bob Okafor and 2 more." */
    private static String named(List<HolderRow> rows) {
        List<String> parts = new ArrayList<>();
        for (HolderRow r : rows.subList(0, Math.min(NAMED_IN_QUESTION, rows.size()))) {
            parts.add(Messages.text("dashboard.actions.titleFrom", r.title(), r.editorName()));
        }
        return Messages.text("dashboard.actions.named", String.join(", ", parts), Math.max(0, rows.size() - NAMED_IN_QUESTION));
    }

    // --- running a batch ----------------------------------------------------------------------------

    private void run(List<HolderRow> rows, LeaseBatch.Action action, Runnable onDone) {
        acting.set(true);
        error.set("");
        outcomes.clear();
        overCapacity.cancel();
        LeaseBatch batch = new LeaseBatch(context.services.supervision(), context.supervisor.id());
        context.longWork.run(action.name(), () -> batch.run(rows, action), result -> {
            acting.set(false);
            context.reached();
            outcomes.setAll(result.outcomes());
            if (result.connectionLost() != null) {
                context.failed(result.connectionLost(), error);
            }
            if (result.outcomes().stream().anyMatch(o -> o.result() == LeaseBatch.Result.DONE)) {
                onDone.run();
            }
            report(rows, action, result);
            holders.refreshSoon();
        }, failure -> {
            acting.set(false);
            context.failed(failure, error);
        });
    }

    private void report(List<HolderRow> rows, LeaseBatch.Action action, LeaseBatch.Results result) {
        List<Outcome> over = result.of(LeaseBatch.Result.OVER_CAPACITY);
        if (!over.isEmpty() && action instanceof LeaseBatch.Reassign r) {
            List<HolderRow> again = rows.stream().filter(row -> over.stream().anyMatch(o -> o.articleId() == row.id())).toList();
            askedAbout = rows;
            overCapacity.ask(over.size() == 1 && rows.size() == 1 ? over.get(0).words()
                    : Messages.text("dashboard.actions.overCapacity", r.to().displayName(), over.size()),
                    Messages.text("dashboard.actions.reassignAnyway"), () -> reassign(again, r.to(), true, r.outsideDesk()));
        }
        if (rows.size() == 1) {
            Outcome only = result.outcomes().get(0);
            switch (only.result()) {
                case DONE -> context.post(Notice.Kind.SUCCESS, only.words());
                case LOST -> context.post(Notice.Kind.WARNING, only.words());
                case REFUSED -> error.set(only.words());
                default -> { } // over capacity asks above; not tried: the banner says why
            }
            return;
        }
        String summary = result.summary(action);
        context.post(result.of(LeaseBatch.Result.DONE).size() == rows.size() ? Notice.Kind.SUCCESS : Notice.Kind.WARNING,
                summary);
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public ObservableList<Editor> reassignCandidates() {
        return reassignCandidates;
    }

    public ObjectProperty<Editor> reassignToProperty() {
        return reassignTo;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public ReadOnlyStringProperty capacityWarningProperty() {
        return overCapacity.questionProperty();
    }

    /** "Take “Budget vote” back from Ann Kowalski?": asked before a force release or reassignment; empty otherwise. */
    public ReadOnlyStringProperty questionProperty() {
        return question.questionProperty();
    }

    /** The label of the button that answers yes. */
    public ReadOnlyStringProperty answerProperty() {
        return question.answerProperty();
    }

    AskFirst question() {
        return question;
    }

    AskFirst overCapacity() {
        return overCapacity;
    }

    /** What went wrong with the last action, said next to its buttons; empty when nothing did. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    /** What happened to each lease of the last action. */
    public ObservableList<Outcome> outcomes() {
        return outcomes;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }

    public BooleanBinding canActProperty() {
        return canAct;
    }

    public BooleanBinding canForceReleaseProperty() {
        return canForceRelease;
    }

    public BooleanBinding canReassignProperty() {
        return canReassign;
    }

}
