package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Deadlines of the articles held, on the window's own tick: the selected article's time left for
 * the reader's header, and the two warnings, each through the same path as a lease about to run out
 * (a notice, and the desktop while the window is behind others): "“Title” is due in 10 min" once the
 * editor's lead time is reached, and "“Title” is late" when the due time passes while the editor
 * holds it. Each is said once per article and due time: a due time a supervisor moved is new, the
 * next tick is not. An article claimed already late is marked on its card and not announced: it was
 * late before it was the editor's.
 */
final class DueWatch {

    private final EditorContext context;
    private final HeldList held;
    private final ReadOnlyIntegerProperty warnMinutes;
    private final StringProperty selectedText = new SimpleStringProperty("");
    private final BooleanProperty selectedLate = new SimpleBooleanProperty();
    /** "article@due" seen before its due time while held: its passing is news. */
    private final Set<String> seenOnTime = new HashSet<>();
    private final Set<String> warned = new HashSet<>();
    private final Set<String> toldLate = new HashSet<>();
    /** The deadline notice on screen per article: the late one replaces the warning; it goes with the article or its due time. */
    private final Map<Long, Shown> shown = new HashMap<>();

    /** @param warnMinutes the editor's lead time for "due in 10 min" (a setting, remembered) */
    DueWatch(EditorContext context, ReadOnlyIntegerProperty warnMinutes) {
        this.context = context;
        this.held = context.held;
        this.warnMinutes = warnMinutes;
        held.selected().addListener((o, was, row) -> showSelected());
    }

    /** Every tick, after the rows' countdowns: the reader's words, then the warnings due. */
    void tick() {
        showSelected();
        Duration lead = Duration.ofMinutes(warnMinutes.get());
        Set<String> current = new HashSet<>();
        for (LeaseRow row : List.copyOf(held.rows())) {
            Duration left = row.dueLeftProperty().get();
            if (left == null) {
                continue;
            }
            String key = row.id() + "@" + row.article().dueAt();
            current.add(key);
            if (!DueWords.late(left)) {
                seenOnTime.add(key);
                if (left.compareTo(lead) <= 0 && warned.add(key)) {
                    tell(row, key, Notice.Kind.WARNING, Messages.text("editor.due.soon", row.article().title(), DueWords.left(left)));
                }
            } else if (seenOnTime.contains(key) && toldLate.add(key)) {
                tell(row, key, Notice.Kind.ERROR, Messages.text("editor.due.late", row.article().title()));
            }
        }
        forgetAllBut(current);
    }

    private void tell(LeaseRow row, String key, Notice.Kind kind, String text) {
        dismiss(row.id());
        shown.put(row.id(), new Shown(key, context.notices.post(kind, text)));
        context.alertDesktop(text);
    }

    /**
     * Articles no longer held (decided, given back, lost) and due times moved: forgotten, and their
     * notice goes. An article set aside for a decision that is undone comes back as it was.
     */
    private void forgetAllBut(Set<String> current) {
        seenOnTime.removeIf(k -> !current.contains(k) && !aside(k));
        warned.removeIf(k -> !current.contains(k) && !aside(k));
        toldLate.removeIf(k -> !current.contains(k) && !aside(k));
        shown.forEach((id, s) -> {
            if (!current.contains(s.key())) {
                context.notices.dismiss(s.notice()); // decided, given back, lost, set aside, or due at another time now
            }
        });
        shown.values().removeIf(s -> !current.contains(s.key()));
    }

    private boolean aside(String key) {
        return held.isAside(Long.parseLong(key.substring(0, key.indexOf('@'))));
    }

    private void dismiss(long articleId) {
        Shown s = shown.remove(articleId);
        if (s != null) {
            context.notices.dismiss(s.notice());
        }
    }

    private void showSelected() {
        LeaseRow row = held.selected().get();
        if (row == null) {
            selectedText.set("");
            selectedLate.set(false);
            return;
        }
        Duration left = row.dueLeftProperty().get();
        selectedText.set(DueWords.of(row.article().dueAt(), left, context.zone));
        selectedLate.set(DueWords.late(left));
    }

    private record Shown(String key, Notice notice) {
    }

    /** The selected article's time left ("due in 25 min", "late by 12 min"); empty without a due time. */
    ReadOnlyStringProperty selectedText() {
        return selectedText;
    }

    /** True while the selected article is late. */
    ReadOnlyBooleanProperty selectedLate() {
        return selectedLate;
    }
}
