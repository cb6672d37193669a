package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
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
import org.copydesk.review.Desk;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Stage;
import org.copydesk.review.StageBoard;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * The "Stages" tab: a desk's review chain as a board, a column per stage with what waits, what is
 * in review and how long the oldest has waited (docs/workflow.md), and moving an article no one
 * reviews to another stage with a reason (asked first; {@code move_to_stage} writes it in the
 * history). Read when the tab or another desk is chosen, after each act, and every refresh interval
 * while the tab is shown and the pointer is not on the board (so no card moves under it).
 */
public final class StageBoardViewModel {

    private final DashboardContext context;
    private final DeskChoice choice = new DeskChoice();
    private final ObjectProperty<Desk> desk = choice.desk();
    private final ObservableList<StageBoard.Column> columns = FXCollections.observableArrayList();
    private final ObservableList<Stage> chain = FXCollections.observableArrayList();
    private final ObjectProperty<StageBoard.Card> selected = new SimpleObjectProperty<>();
    private final ObservableList<Stage> moveTargets = FXCollections.observableArrayList();
    private final ObjectProperty<Stage> moveTo = new SimpleObjectProperty<>();
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty error = new SimpleStringProperty("");
    private final StringProperty loadError = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final BooleanProperty pointerOver = new SimpleBooleanProperty();
    private final AskFirst question = new AskFirst();
    private final BooleanBinding canMove;
    private final List<Runnable> afterRead = new ArrayList<>();
    private LocalDateTime readAt;
    private final DeskTabReads<StageBoard> reads;

    StageBoardViewModel(DashboardContext context) {
        this.context = context;
        this.reads = new DeskTabReads<>(context, "load the stage board", id -> context.services.stages().board(id),
                StageBoard::desk, loadError, pointerOver);
        desk.addListener((o, a, d) -> {
            selected.set(null);
            columns.clear();
            chain.clear();
            refresh();
        });
        selected.addListener((o, a, card) -> {
            question.cancel();
            error.set("");
            moveTargets.setAll(card == null ? List.of() : chain.stream().filter(s -> !s.id().equals(card.stageId())).toList());
            moveTo.set(null);
        });
        canMove = Bindings.createBooleanBinding(() -> !acting.get() && selected.get() != null && selected.get().movable()
                && moveTo.get() != null && !reason.get().isBlank(), acting, selected, moveTo, reason);
    }

    /** The desks are known (or changed): the supervisor's own first, then the others. */
    void desksKnown() {
        choice.desksKnown(context);
    }

    /** Reads the chosen desk's board again. */
    public void refresh() {
        reads.refresh(desk.get(), desk::get, board -> {
            readAt = board.serverNow();
            StageBoard.Card was = selected.get();
            List<Stage> now = board.columns().stream().map(StageBoard.Column::stage).toList();
            if (!now.equals(chain)) {
                chain.setAll(now);
            }
            columns.setAll(board.columns());
            selected.set(was == null ? null : board.columns().stream().flatMap(c -> c.cards().stream())
                    .filter(c -> c.id() == was.id()).findFirst().orElse(null));
            afterRead.forEach(Runnable::run);
        });
    }

    /** Reloads when due, while the tab is shown and the pointer is not on the board. */
    void tick(long now) {
        if (reads.due(now)) {
            refresh();
        }
    }

    void shown(boolean isShown) {
        reads.shown(isShown);
    }

    /** Something else to do after each read (the chain's setup follows the board). */
    void afterEachRead(Runnable then) {
        afterRead.add(then);
    }

    // --- moving an article to another stage ---------------------------------------------------------

    /** Asks whether to move the chosen article to the chosen stage; yes moves it, with the reason. */
    public void moveSelected() {
        StageBoard.Card card = selected.get();
        Stage to = moveTo.get();
        if (!canMove.get() || card == null || to == null) {
            return;
        }
        String from = chain.stream().filter(s -> s.id().equals(card.stageId())).findFirst().map(Stage::name).orElse(card.stageId());
        String why = reason.get().strip();
        question.ask(Messages.text("dashboard.stages.ask.move", card.title(), from, to.name()),
                Messages.text("dashboard.stages.move.yes", to.name()), () -> move(card, to, why));
    }

    private void move(StageBoard.Card card, Stage to, String why) {
        ReviewStages stages = context.services.stages();
        String supervisor = context.supervisor.id();
        acting.set(true);
        error.set("");
        context.tasks.run("move to another stage", () -> {
            stages.moveTo(supervisor, card.id(), to.id(), why);
            return Messages.text("dashboard.stages.done.moved", card.title(), to.name());
        }, done -> {
            acting.set(false);
            context.reached();
            reason.set("");
            context.post(Notice.Kind.SUCCESS, done);
            refresh();
        }, failure -> {
            acting.set(false);
            context.failed(failure, error);
            refresh();
        });
    }

    public void confirm() {
        question.confirm();
    }

    public void cancelQuestion() {
        question.cancel();
    }

    // --- how it reads -------------------------------------------------------------------------------

    /** "3 waiting · 1 in review · oldest 12 min". */
    public String countsOf(StageBoard.Column c) {
        String counts = Messages.text("dashboard.stages.counts", c.waiting(), c.inReview());
        return c.oldestWaitingSince() == null || readAt == null ? counts
                : Messages.text("dashboard.stages.countsOldest", counts, Formats.roughly(Duration.between(c.oldestWaitingSince(), readAt)));
    }

    /** "Legal · when asked · four eyes · Cat Lawson": how the stage is set up, in a line. */
    public String setupOf(Stage s) {
        List<String> parts = new ArrayList<>();
        parts.add(Messages.text(s.whenAsked() ? "dashboard.stages.whenAsked" : "dashboard.stages.always"));
        if (s.fourEyes()) {
            parts.add(Messages.text("dashboard.stages.fourEyes"));
        }
        parts.add(s.namedTakers() ? (s.takers().isEmpty() ? Messages.text("dashboard.stages.nobodyNamed")
                : Formats.list(s.takers().stream().map(context::personName).toList())) : Messages.text("dashboard.stages.deskEditors"));
        if (s.leaseLength() != null) {
            parts.add(Messages.text("dashboard.stages.lease", Formats.roughly(s.leaseLength())));
        }
        return String.join(" \u00b7 ", parts);
    }

    /** "Ann Kowalski is reviewing", "On hold (Sue Lindqvist)", "Waiting 12 min". */
    public String stateOf(StageBoard.Card card) {
        if (card.reviewer() != null) {
            return Messages.text("dashboard.stages.card.reviewing", context.personName(card.reviewer()));
        } else if (card.heldBy() != null) {
            return Messages.text("dashboard.stages.card.onHold", context.personName(card.heldBy()));
        } else if (readAt != null && !card.since().isAfter(readAt)) {
            return Messages.text("dashboard.stages.card.waiting", Formats.roughly(Duration.between(card.since(), readAt)));
        }
        return Messages.text("dashboard.stages.card.scheduled", Formats.localDayClock(card.since(), context.zone));
    }

    TableSnapshot snapshot() {
        return new TableSnapshot(List.of("stage", "name", "waiting", "in_review", "oldest_waiting_since_utc"),
                columns.stream().map(c -> List.of(c.stage().id(), c.stage().name(), Integer.toString(c.waiting()),
                        Integer.toString(c.inReview()), c.oldestWaitingSince() == null ? "" : c.oldestWaitingSince().toString())).toList());
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public ObservableList<Desk> desks() {
        return choice.desks();
    }

    public ObjectProperty<Desk> deskProperty() {
        return desk;
    }

    public ObservableList<StageBoard.Column> columns() {
        return columns;
    }

    /** The chosen desk's chain, first stage first, as last read. */
    public ObservableList<Stage> chain() {
        return chain;
    }

    public ObjectProperty<StageBoard.Card> selectedProperty() {
        return selected;
    }

    /** The stages the chosen article can be moved to: the desk's others. */
    public ObservableList<Stage> moveTargets() {
        return moveTargets;
    }

    public ObjectProperty<Stage> moveToProperty() {
        return moveTo;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public BooleanBinding canMoveProperty() {
        return canMove;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }

    /** Why the last move failed, in one line. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError;
    }

    /** Set by the view while the pointer is on the board: the cards hold still. */
    public BooleanProperty pointerOverProperty() {
        return pointerOver;
    }

    AskFirst question() {
        return question;
    }
}
