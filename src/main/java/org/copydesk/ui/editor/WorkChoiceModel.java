package org.copydesk.ui.editor;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.WorkChoices;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.TaskExecutor;

/**
 * The desks and stages a person takes work from, as they tick them (docs/workflow.md, "What an
 * editor takes work from"): read from the database ticked as last time, kept there by
 * {@code set_work_choice}, which every claim reads. Nothing ticked means everything they may work.
 * Asked at sign-in (not of someone with one desk and no stages) and from the editor's window.
 */
public final class WorkChoiceModel {

    /** One desk without stages, or one stage of a desk, and whether it is ticked. */
    public static final class Pick {
        private final WorkChoices.Option option;
        private final BooleanProperty ticked;

        Pick(WorkChoices.Option option) {
            this.option = option;
            this.ticked = new SimpleBooleanProperty(option.chosen());
        }

        public WorkChoices.Option option() {
            return option;
        }

        public BooleanProperty tickedProperty() {
            return ticked;
        }
    }

    private final ReviewSession session;
    private final TaskExecutor tasks;
    private final String person;
    private final ObservableList<Pick> picks = FXCollections.observableArrayList();
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final StringProperty error = new SimpleStringProperty("");

    public WorkChoiceModel(ReviewSession session, TaskExecutor tasks, String person) {
        this.session = session;
        this.tasks = tasks;
        this.person = person;
    }

    /** Reads what the person may work, ticked as they chose last time; then {@code then}, with whether it was read. */
    public void load(Consumer<Boolean> then) {
        busy.set(true);
        error.set("");
        tasks.run("read the desks and stages", () -> session.workChoices().options(person), options -> {
            busy.set(false);
            picks.setAll(options.stream().map(Pick::new).toList());
            then.accept(true);
        }, failure -> {
            failed(failure);
            then.accept(false);
        });
    }

    /** True when there is a choice to make: more than one desk or stage (one desk without stages is not asked). */
    public boolean asks() {
        return picks.size() > 1;
    }

    /** Keeps the ticks as the person's choice; then {@code then} with the desks they may work. */
    public void save(Consumer<List<String>> then) {
        Set<String> ticked = picks.stream().filter(p -> p.tickedProperty().get()).map(p -> p.option().entry())
                .collect(Collectors.toSet());
        List<String> entries = WorkChoices.entriesFor(picks.stream().map(Pick::option).toList(), ticked);
        busy.set(true);
        error.set("");
        tasks.run("keep the desks and stages chosen", () -> session.workChoices().choose(person, entries), kept -> {
            busy.set(false);
            then.accept(desks());
        }, this::failed);
    }

    /** The desks the person may work, as the choice lists them. */
    public List<String> desks() {
        return picks.stream().map(p -> p.option().desk()).distinct().toList();
    }

    /** "News · Copy edit, Sport", as ticked; every desk and stage when nothing (or everything) is ticked. */
    public String summary() {
        List<Pick> ticked = picks.stream().filter(p -> p.tickedProperty().get()).toList();
        if (ticked.isEmpty() || ticked.size() == picks.size()) {
            return Messages.text("editor.workChoice.everything");
        }
        return Formats.list(ticked.stream().map(p -> p.option().stage() == null ? p.option().deskName()
                : Messages.text("editor.workChoice.stage", p.option().deskName(), p.option().stageName())).toList());
    }

    private void failed(Throwable failure) {
        busy.set(false);
        error.set(ConnectionTrouble.describe(failure));
    }

    public ObservableList<Pick> picks() {
        return picks;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    /** Why the choice could not be read or kept, in words; empty otherwise. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }
}
