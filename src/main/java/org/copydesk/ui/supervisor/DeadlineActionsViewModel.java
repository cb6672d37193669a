package org.copydesk.ui.supervisor;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
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
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.Editor;
import org.copydesk.review.Supervision;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * What a supervisor does with an article on the Deadlines tab, each through the database's own
 * operation, as on the Queue tab: move it to the front ({@code move_to_front}), give it to someone
 * ({@code reassign_article}, asked first), or extend its deadline with a reason ({@code
 * set_due_time}). The new due time is a wall-clock time in the supervisor's zone, "18:30" (today)
 * or "2026-11-29 18:30"; a refusal is said under the buttons.
 */
public final class DeadlineActionsViewModel {

    private static final DateTimeFormatter DAY_AND_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private final DeadlinesViewModel deadlines;
    private final DashboardContext context;
    private final Runnable afterGiving;
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty newDue = new SimpleStringProperty("");
    private final ObservableList<Editor> candidates = FXCollections.observableArrayList();
    private List<String> shownLabels = List.of();
    private final ObjectProperty<Editor> giveTo = new SimpleObjectProperty<>();
    private final AskFirst question = new AskFirst();
    private final StringProperty error = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final BooleanBinding canMoveToFront;
    private final BooleanBinding canGive;
    private final BooleanBinding canExtend;

    DeadlineActionsViewModel(DeadlinesViewModel deadlines, Runnable afterGiving) {
        this.deadlines = deadlines;
        this.context = deadlines.context();
        this.afterGiving = afterGiving;
        ObjectProperty<DueArticle> selected = deadlines.selectedProperty();
        canMoveToFront = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && selected.get().heldBy() == null
                && "queued".equals(selected.get().status()), acting, selected);
        canGive = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && giveTo.get() != null
                && "queued".equals(selected.get().status()), acting, selected, giveTo);
        canExtend = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && !reason.get().isBlank()
                && !newDue.get().isBlank(), acting, selected, reason, newDue);
        selected.addListener((o, a, item) -> {
            if (a == null || item == null || a.id() != item.id()) {
                question.cancel();
                error.set("");
            }
            peopleKnown();
        });
    }

    /** Whom the chosen article can be given to (the desk's people). */
    void peopleKnown() {
        String desk = deadlines.deskProperty().get() == null ? null : deadlines.deskProperty().get().id();
        List<Editor> fit = desk == null || deadlines.selectedProperty().get() == null ? List.of()
                : context.recipients(Set.of(desk), deadlines.selectedProperty().get().heldBy());
        Editor keep = giveTo.get();
        List<String> fitLabels = fit.stream().map(e -> context.recipientLabel(e, desk == null ? Set.of() : Set.of(desk))).toList();
        if (!fit.equals(candidates) || !fitLabels.equals(shownLabels)) { // a label changes with presence and load
            shownLabels = fitLabels;
            candidates.setAll(fit);
        }
        giveTo.set(keep == null ? null : fit.stream().filter(e -> e.id().equals(keep.id())).findFirst().orElse(null));
    }

    public void moveToFront() {
        DueArticle a = deadlines.selectedProperty().get();
        if (a == null || acting.get()) {
            return;
        }
        String why = reasonOrNull();
        String supervisor = context.supervisor.id();
        act("move a due article to the front", () -> {
            context.services.queueOverrides().moveToFront(a.id(), supervisor, why);
            return Messages.text("dashboard.queue.done.front", a.title());
        }, () -> { });
    }

    /** Asks whether to give the chosen article to the chosen editor. */
    public void giveSelected() {
        DueArticle a = deadlines.selectedProperty().get();
        Editor to = giveTo.get();
        if (a == null || to == null || acting.get()) {
            return;
        }
        Set<String> desk = Set.of(deadlines.deskProperty().get().id());
        boolean outsideDesk = Recipients.lacks(to, desk);
        Supervision.Give how = new Supervision.Give(false, outsideDesk, reasonOrNull());
        String supervisor = context.supervisor.id();
        question.ask(Messages.text("dashboard.deadlines.ask.give", a.title(), to.displayName(), deadlines.leftOf(a)),
                Messages.text("dashboard.actions.confirmReassign", 1, to.displayName()),
                () -> act("give a due article", () -> {
                    context.services.supervision().reassign(a.id(), to.id(), supervisor, how);
                    return Messages.text("dashboard.actions.outcome.reassigned", a.title(), to.displayName());
                }, afterGiving));
    }

    /** Sets the chosen article's new due time, with the reason (in its history). */
    public void extend() {
        DueArticle a = deadlines.selectedProperty().get();
        if (a == null || acting.get()) {
            return;
        }
        Instant due;
        try {
            due = parse(newDue.get(), LocalDate.now(context.zone));
        } catch (DateTimeException e) {
            error.set(Messages.text("dashboard.deadlines.extend.unreadable", newDue.get()));
            return;
        }
        String why = reason.get().strip();
        String supervisor = context.supervisor.id();
        act("extend a deadline", () -> {
            context.services.dueTimes().set(supervisor, a.id(), due, why);
            return Messages.text("dashboard.deadlines.extend.done", a.title(),
                    org.copydesk.ui.common.Formats.localDayClock(LocalDateTime.ofInstant(due, java.time.ZoneOffset.UTC), context.zone));
        }, () -> newDue.set(""));
    }

    /** "18:30" today, or "2026-11-29 18:30", in the supervisor's zone (a time a clock change skips moves on by the gap). */
    Instant parse(String text, LocalDate today) {
        String s = text.strip();
        if (s.length() <= 5) {
            return ZonedDateTime.of(today, LocalTime.parse(s.length() == 4 ? "0" + s : s), context.zone).toInstant();
        }
        return ZonedDateTime.of(LocalDateTime.parse(s, DAY_AND_TIME), context.zone).toInstant();
    }

    public void confirm() {
        question.confirm();
    }

    private void act(String what, Callable<String> work, Runnable andThen) {
        acting.set(true);
        error.set("");
        context.tasks.run(what, work, done -> {
            acting.set(false);
            context.reached();
            reason.set("");
            context.post(Notice.Kind.SUCCESS, done);
            deadlines.refresh();
            andThen.run();
        }, failure -> {
            acting.set(false);
            context.failed(failure, error);
            deadlines.refresh();
        });
    }

    private String reasonOrNull() {
        return reason.get() == null || reason.get().isBlank() ? null : reason.get().strip();
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public String candidateLabel(Editor e) {
        String desk = deadlines.deskProperty().get() == null ? "" : deadlines.deskProperty().get().id();
        return context.recipientLabel(e, Set.of(desk));
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public StringProperty newDueProperty() {
        return newDue;
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

    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public BooleanBinding canMoveToFront() {
        return canMoveToFront;
    }

    public BooleanBinding canGive() {
        return canGive;
    }

    public BooleanBinding canExtend() {
        return canExtend;
    }
}
