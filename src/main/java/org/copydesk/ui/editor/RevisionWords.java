package org.copydesk.ui.editor;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Locale;
import org.copydesk.ui.common.Formats;

/**
 * The words of the reader's revision parts (issue 13), in one place: what the holder is told when a
 * newer version arrives, why a decision on an outdated one was not sent, and the line above a diff.
 */
final class RevisionWords {

    private RevisionWords() {
    }

    static String newerArrived(int revision) {
        return "The writer sent a newer version (revision " + revision + "). Your notes are kept.";
    }

    static String loadNewer() {
        return "Show the new version";
    }

    static String outdated() {
        return "Not sent: a newer version arrived while you were reading. Your notes are kept \u2014"
                + " show the new version, check what changed, then submit again.";
    }

    static String noLongerHeld() {
        return "This article is no longer yours, so the new version cannot be shown here. Your notes are kept as a draft.";
    }

    static String returned(int revision, int sentBack, String by, LocalDateTime at, ZoneId zone, Locale locale) {
        return "Back from the writer: revision " + revision + ". " + by + " sent revision " + sentBack
                + " back for changes on " + Formats.localDateTime(at, zone, locale) + ":";
    }

    static String tookNewer(int from, int to) {
        return "Changes from revision " + from + ", which you were reading, to revision " + to + ".";
    }

    static String summary(int added, int removed) {
        return Formats.count(added, "word") + " added, " + Formats.count(removed, "word") + " removed";
    }

    static String showChanges() {
        return "Show changes";
    }

    static String cleanText() {
        return "Clean text";
    }

    static String legend() {
        return "Added text is underlined, removed text is struck through.";
    }

    static String added(String text) {
        return "[added: " + text + "]";
    }

    static String removed(String text) {
        return "[removed: " + text + "]";
    }

    static String titleLine() {
        return "Title: ";
    }

    static String bylineLine(String from, String to) {
        return "Byline: " + (from == null ? "none" : from) + " \u2192 " + (to == null ? "none" : to);
    }
}
