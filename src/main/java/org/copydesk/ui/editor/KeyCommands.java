package org.copydesk.ui.editor;

/**
 * What the editor could only click before, by key: Undo (the decision just made), "Show the new
 * version" and "Keep it". Each answers whether it did anything, so the window lets a key it did
 * not use go on to the control in focus (Ctrl+Shift+Z is the notes' redo while no decision waits).
 */
final class KeyCommands {

    private final HeldList held;
    private final DecisionQueue decisions;
    private final RevisionReader revisions;
    private final LeaseUpkeep upkeep;

    KeyCommands(HeldList held, DecisionQueue decisions, RevisionReader revisions, LeaseUpkeep upkeep) {
        this.held = held;
        this.decisions = decisions;
        this.revisions = revisions;
        this.upkeep = upkeep;
    }

    /** The last decision not sent yet comes back. False if none waits. */
    boolean undoLast() {
        return decisions.undoLast();
    }

    /** "Show the new version", when a newer version of the selected article arrived. */
    boolean loadNewer() {
        LeaseRow row = held.selected().get();
        if (row == null || !revisions.hasNewer(row.id())) {
            return false;
        }
        revisions.loadNewer();
        return true;
    }

    /** "Keep it": the leases the editor was warned about are renewed. False if none was warned about. */
    boolean keepWarned() {
        return upkeep.keepWarned();
    }
}
