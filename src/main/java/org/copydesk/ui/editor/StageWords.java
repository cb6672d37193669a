package org.copydesk.ui.editor;

import java.time.ZoneId;
import java.util.Locale;
import org.copydesk.review.ArticleStage;
import org.copydesk.review.Stage;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/** How the editor's window says where an article is in its desk's review chain. */
final class StageWords {

    /** The start of the database's four-eyes refusal (db/routines/R__stage_step.sql). */
    private static final String FOUR_EYES = "Four eyes:";

    private StageWords() {
    }

    /** "Legal · 2 of 3". */
    static String where(Stage stage, int stages) {
        return Messages.text("editor.stage.where", stage.name(), stage.position(), stages);
    }

    /** "Approve → Legal". */
    static String approveTo(Stage next) {
        return Messages.text("editor.stage.approveTo", next.name());
    }

    /** "Approve (final)": the last stage the article goes through. */
    static String approveFinal() {
        return Messages.text("editor.stage.approveFinal");
    }

    /** "Needs legal": a tick that sends the article through a stage entered only when asked. */
    static String needs(Stage stage) {
        return Messages.text("editor.stage.needs", stage.name().toLowerCase(Locale.ROOT));
    }

    /** "Copy edit: Ann Kowalski approved at 14:02 — tightened the intro", and "(pass 1)" for an earlier pass. */
    static String note(ArticleStage.StageNote n, int passNow, ZoneId zone) {
        String verb = Messages.text(switch (n.verdict()) {
            case APPROVE -> "editor.stage.approved";
            case REJECT -> "editor.stage.rejected";
            case SEND_BACK -> "editor.stage.sentBack";
            case UNREVIEWABLE -> "editor.stage.unreviewable";
        });
        String stage = n.pass() == passNow ? n.stageName() : Messages.text("editor.stage.earlierPass", n.stageName(), n.pass());
        String said = Messages.text("editor.stage.note", stage, n.editorName(), verb, Formats.localClock(n.decidedAt(), zone));
        return n.notes() == null || n.notes().isBlank() ? said : Messages.text("editor.stage.noteWithNotes", said, n.notes().strip());
    }

    /** The database's refusal in plain words; four eyes says what to do at {@code here}. */
    static String refusal(String message, Stage here) {
        if (message != null && message.startsWith(FOUR_EYES)) {
            return Messages.text("editor.stage.fourEyes", here == null ? "" : here.name(), EditorView.RELEASE.getDisplayText());
        }
        return message;
    }
}
