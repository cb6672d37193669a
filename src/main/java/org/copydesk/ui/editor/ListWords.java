package org.copydesk.ui.editor;

import java.util.stream.Collectors;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableStringValue;
import javafx.collections.ListChangeListener;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The words around "My articles": how many the editor holds of how many ("3 of 5"), the desks
 * worked on today by name, and what an empty list says (nothing yet; nothing on the desks and when
 * the next article comes; work waiting).
 */
final class ListWords {

    private final EditorContext context;
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty desks = new SimpleStringProperty("");
    private final StringProperty empty = new SimpleStringProperty("");

    /** @param waiting "3 articles waiting on News — F5", empty when no work waits */
    ListWords(EditorContext context, ArticleClaims claims, ObservableStringValue waiting) {
        this.context = context;
        HeldList held = context.held;
        StringBinding emptyText = Bindings.createStringBinding(() -> {
            if (!held.rows().isEmpty()) {
                return "";
            }
            if (!claims.everLoadedProperty().get()) {
                return Messages.text("editor.list.empty");
            }
            if (!waiting.get().isEmpty()) {
                return Messages.text("editor.list.workWaiting");
            }
            String names = context.desks.isEmpty() ? Messages.text("editor.yourDesks")
                    : Formats.list(context.desks.stream().map(context::deskName).toList());
            return claims.nextAvailableProperty().get()
                    .map(t -> Messages.text("editor.nothingNextAt", names, Formats.localClock(t, context.zone)))
                    .orElse(Messages.text("editor.nothing", names));
        }, held.rows(), claims.everLoadedProperty(), claims.nextAvailableProperty(), waiting, desks);
        empty.bind(emptyText);
        held.rows().addListener((ListChangeListener<LeaseRow>) c -> update());
    }

    /** Reads the desks' names (until then their ids show). */
    void start() {
        desks.set(String.join(", ", context.desks));
        BackgroundTask.of("load desks", () -> context.session.newsroom().desks())
                .onSuccess(list -> {
                    context.knowDesks(list);
                    desks.set(context.desks.stream().map(context::deskName).collect(Collectors.joining(", ")));
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /** Every tick and on every change of the list. */
    void update() {
        summary.set(Messages.text("editor.summary", context.held.rows().size(), context.editor.capacity()));
    }

    ReadOnlyStringProperty summary() {
        return summary;
    }

    ReadOnlyStringProperty desks() {
        return desks;
    }

    ReadOnlyStringProperty empty() {
        return empty;
    }
}
