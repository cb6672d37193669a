package org.copydesk.ui.editor;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Locale;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The words of the reader's revision parts, from the bundle (keys {@code editor.revision.*}):
 * what the holder is told when a newer version arrives, why a decision on an outdated one was not
 * sent, and the line above a diff.
 */
final class RevisionWords {

    private RevisionWords() {
    }

    static String newerArrived(int revision) {
        return Messages.text("editor.revision.newerArrived", revision);
    }

    static String loadNewer() {
        return Messages.text("editor.revision.loadNewer");
    }

    static String outdated() {
        return Messages.text("editor.revision.outdated");
    }

    static String noLongerHeld() {
        return Messages.text("editor.revision.noLongerHeld");
    }

    static String returned(int revision, int sentBack, String by, LocalDateTime at, ZoneId zone, Locale locale) {
        return Messages.text("editor.revision.returned", revision, by, sentBack, Formats.localDayClock(at, zone, locale));
    }

    static String tookNewer(int from, int to) {
        return Messages.text("editor.revision.tookNewer", from, to);
    }

    static String summary(int added, int removed) {
        return Messages.text("editor.revision.summary", added, removed);
    }

    static String showChanges() {
        return Messages.text("editor.revision.showChanges");
    }

    static String cleanText() {
        return Messages.text("editor.revision.cleanText");
    }

    /** The button that unfolds the header folded to one line in a short window, and folds it again. */
    static String more() {
        return Messages.text("editor.revision.more");
    }

    static String less() {
        return Messages.text("editor.revision.less");
    }

    static String moreSpoken() {
        return Messages.text("editor.revision.more.spoken");
    }

    static String legend() {
        return Messages.text("editor.revision.legend");
    }

    static String added(String text) {
        return Messages.text("editor.revision.added", text);
    }

    static String removed(String text) {
        return Messages.text("editor.revision.removed", text);
    }

    static String titleLine() {
        return Messages.text("editor.revision.titleLine");
    }

    static String bylineLine(String from, String to) {
        String none = Messages.text("editor.revision.noByline");
        return Messages.text("editor.revision.bylineLine", from == null ? none : from, to == null ? none : to);
    }
}
