package org.copydesk.ui.supervisor;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javafx.beans.property.StringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.ObservableSet;
import javafx.collections.SetChangeListener;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;

/**
 * Who takes a stage whose takers are named, picked as a reassignment's person is: everyone who may
 * hold articles, found by name or account, each said with whether they are signed in and how much
 * they hold, those signed in with room first ({@link Recipients}); several may be ticked. A named
 * person need not be on the desk (a lawyer reads Legal for several desks): the picker says so. The
 * ticks are the setup form's takers (ids, comma-separated), which the database checks when saved.
 */
final class StageTakerPicker {

    private final DashboardContext context;
    private final StageBoardViewModel board;
    private final StringProperty takers;
    private final StringProperty search = new SimpleStringProperty("");
    private final ObservableList<Editor> shown = FXCollections.observableArrayList();
    private final ObservableSet<String> ticked = FXCollections.observableSet(new LinkedHashSet<>());
    /** True while the ticks follow the form (a stage chosen): the form is not written back meanwhile. */
    private boolean following;

    StageTakerPicker(DashboardContext context, StageBoardViewModel board, StringProperty takers) {
        this.context = context;
        this.board = board;
        this.takers = takers;
        takers.addListener((o, was, now) -> follow(now));
        ticked.addListener((SetChangeListener<String>) c -> {
            if (!following) {
                takers.set(String.join(", ", ticked));
            }
        });
        search.addListener((o, was, now) -> refresh());
        context.people().addListener((ListChangeListener<Editor>) c -> refresh());
        board.deskProperty().addListener((o, was, now) -> refresh());
        follow(takers.get());
        refresh();
    }

    /** The ticks from the form's takers: ids, or names as the dashboard knows them. */
    private void follow(String text) {
        Set<String> ids = new LinkedHashSet<>();
        for (String part : Arrays.stream(text.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList()) {
            ids.add(context.people().stream().filter(e -> e.id().equals(part) || e.displayName().equalsIgnoreCase(part))
                    .map(Editor::id).findFirst().orElse(part));
        }
        if (ids.equals(ticked)) {
            return;
        }
        following = true;
        try {
            ticked.retainAll(ids);
            ticked.addAll(ids);
        } finally {
            following = false;
        }
    }

    /** The people to pick from, as the search finds them (by name or account), signed in with room first. */
    void refresh() {
        String wanted = search.get().strip().toLowerCase(Locale.ROOT);
        List<Editor> fit = context.recipients(desks(), null).stream()
                .filter(e -> wanted.isEmpty() || e.id().toLowerCase(Locale.ROOT).contains(wanted)
                        || e.displayName().toLowerCase(Locale.ROOT).contains(wanted))
                .toList();
        shown.setAll(fit);
    }

    private Set<String> desks() {
        Desk desk = board.deskProperty().get();
        return desk == null ? Set.of() : Set.of(desk.id());
    }

    /** Ticks {@code e} if not ticked, else unticks them. */
    void toggle(Editor e) {
        if (!ticked.remove(e.id())) {
            ticked.add(e.id());
        }
    }

    /** "Cat Moreau (cat) — signed in, 1 of 4 · not on News". */
    String label(Editor e) {
        return context.recipientLabel(e, desks());
    }

    StringProperty searchProperty() {
        return search;
    }

    ObservableList<Editor> shown() {
        return shown;
    }

    ObservableSet<String> ticked() {
        return ticked;
    }
}
