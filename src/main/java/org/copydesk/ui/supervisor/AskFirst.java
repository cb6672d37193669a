package org.copydesk.ui.supervisor;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A question the dashboard asks before it acts ("Take “Budget vote” back from Ann Kowalski?"):
 * the words, the label of the button that answers yes, and what yes does. One at a time: asking
 * again replaces the question. The view shows it with {@link AskFirstBox}.
 */
final class AskFirst {

    private final StringProperty question = new SimpleStringProperty("");
    private final StringProperty answer = new SimpleStringProperty("");
    private Runnable onYes;

    void ask(String text, String yes, Runnable action) {
        onYes = action;
        answer.set(yes);
        question.set(text);
    }

    /** Yes: the question goes and its action runs. */
    void confirm() {
        Runnable action = onYes;
        cancel();
        if (action != null) {
            action.run();
        }
    }

    void cancel() {
        onYes = null;
        question.set("");
        answer.set("");
    }

    boolean pending() {
        return onYes != null;
    }

    /** The question; empty when none is asked. */
    ReadOnlyStringProperty questionProperty() {
        return question;
    }

    /** The label of the button that answers yes. */
    ReadOnlyStringProperty answerProperty() {
        return answer;
    }
}
