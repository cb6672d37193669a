package org.copydesk.ui.editor;

/**
 * Notices about an article that leaves the editor or comes back undecided end with "Your notes are
 * kept…". Said when nothing was typed, that reads as if something had been saved that the editor
 * never wrote, and sends her looking for it: then the sentence goes.
 */
final class NotesWords {

    private NotesWords() {
    }

    /** {@code text} as it should read when the editor had typed no notes on the article. */
    static String withoutNotesKept(String text) {
        return text.replace(" Your notes are kept as a draft.", "")
                .replace(" Your notes are kept; open it", " Open it")
                .replace(" Your notes are kept.", "");
    }

    /** {@code text}, or without its "notes kept" sentence when there were no notes. */
    static String said(String text, boolean hadNotes) {
        return hadNotes ? text : withoutNotesKept(text);
    }
}
