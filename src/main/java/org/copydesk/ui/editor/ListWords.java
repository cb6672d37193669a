package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableStringValue;
import javafx.collections.ListChangeListener;
import org.copydesk.review.Desk;
import org.copydesk.review.Stage;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The words around "My articles": how many the editor holds of how many ("3 of 5"), the desks
 * (and stages, where the editor chose some) worked on today by name, and what an empty list says
 * (nothing yet; nothing on the desks and when the next article comes; work waiting). The desks'
 * names and which desks are the editor's are read at the start and again every
 * {@link #DESKS_EVERY}, so a desk renamed or taken away by an admin shows within a minute.
 */
final class ListWords {

    static final Duration DESKS_EVERY = Duration.ofSeconds(60);

    private final EditorContext context;
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty desks = new SimpleStringProperty("");
    private final StringProperty empty = new SimpleStringProperty("");
    private final IntegerProperty deskChanges = new SimpleIntegerProperty();
    private long nextDesksNanos;
    private boolean readingDesks;

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
            String names = context.desks().isEmpty() ? Messages.text("editor.yourDesks")
                    : Formats.list(context.desks().stream().map(context::deskName).toList());
            return claims.nextAvailableProperty().get()
                    .map(t -> Messages.text("editor.nothingNextAt", names, Formats.localClock(t, context.zone)))
                    .orElse(Messages.text("editor.nothing", names));
        }, held.rows(), claims.everLoadedProperty(), claims.nextAvailableProperty(), waiting, desks, deskChanges);
        empty.bind(emptyText);
        held.rows().addListener((ListChangeListener<LeaseRow>) c -> update());
    }

    /** Reads the desks' names (until then their ids show). */
    void start() {
        desks.set(String.join(", ", context.desks()));
        readDesks();
    }

    private void readDesks() {
        nextDesksNanos = context.ticker.nanoTime() + DESKS_EVERY.toNanos();
        String editorId = context.editor.id();
        List<String> chosen = context.desks();
        BackgroundTask.of("read the desks", () -> new DesksNow(context.session.newsroom().desks(),
                        context.session.workChoices().desksOf(editorId), // with those where a stage names them
                        chains(chosen), context.session.workChoices().chosen(editorId)))
                .onRunning(() -> readingDesks = true)
                .onFinished(() -> readingDesks = false)
                .onSuccess(now -> {
                    boolean chainsChanged = context.knowChains(now.chains());
                    if (context.knowDesks(now.all(), now.editorsDesks()) || chainsChanged) {
                        deskChanges.set(deskChanges.get() + 1);
                    }
                    desks.set(topLine(context.desks(), context::deskName, now.chains(), now.choice()));
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /** The review chains of these desks, read with the desks: an admin's change to a chain shows within a minute too. */
    private Map<String, List<Stage>> chains(List<String> deskIds) {
        Map<String, List<Stage>> chains = new HashMap<>();
        for (String desk : deskIds) {
            chains.put(desk, context.session.stages().chain(desk));
        }
        return chains;
    }

    private record DesksNow(List<Desk> all, List<String> editorsDesks, Map<String, List<Stage>> chains, Set<String> choice) {
    }

    /**
     * What the window's top line names: the desks worked on today, and where the editor chose to take
     * work from only some of a desk's stages, those stages ("News · Copy edit, Sport"); a desk left out
     * of the choice is left out here too. No choice (or one naming nothing still theirs): every desk.
     */
    static String topLine(List<String> desks, Function<String, String> deskName, Map<String, List<Stage>> chains,
                          Set<String> choice) {
        List<String> parts = new ArrayList<>();
        for (String desk : desks) {
            if (choice.isEmpty() || choice.contains(desk)) {
                parts.add(deskName.apply(desk));
                continue;
            }
            for (Stage stage : chains.getOrDefault(desk, List.of())) {
                if (choice.contains(desk + "/" + stage.id())) {
                    parts.add(Messages.text("editor.workChoice.stage", deskName.apply(desk), stage.name()));
                }
            }
        }
        return String.join(", ", parts.isEmpty() ? desks.stream().map(deskName).toList() : parts);
    }

    /** Reads the desks and the editor's choice again at the next tick (a choice was just kept). */
    void readSoon() {
        nextDesksNanos = context.ticker.nanoTime();
        update();
    }

    /** Every tick and on every change of the list; the desks again when their time has come. */
    void update() {
        summary.set(Messages.text("editor.summary", context.held.rows().size(), context.editor.capacity()));
        if (!readingDesks && !context.connection.isOffline() && context.ticker.nanoTime() >= nextDesksNanos) {
            readDesks();
        }
    }

    /** Counts the times the desks' names or the editor's desks changed: what shows a desk's name is shown again. */
    ReadOnlyIntegerProperty deskChanges() {
        return deskChanges;
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
