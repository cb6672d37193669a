package org.copydesk.ui.common;

/**
 * The words on screen for codes stored in the database (history actions, article states, roles),
 * from the bundle like every other word: the codes stay as they are in the data, in exports and
 * on the command line. A code this version does not know is shown as it is stored.
 */
public final class DataWords {

    private DataWords() {
    }

    /** "force_release" → "force release" (English bundle). */
    public static String action(String code) {
        String key = switch (code) {
            case "claim" -> "common.action.claim";
            case "refresh" -> "common.action.refresh";
            case "renew" -> "common.action.renew";
            case "release" -> "common.action.release";
            case "complete" -> "common.action.complete";
            case "expire" -> "common.action.expire";
            case "extend" -> "common.action.extend";
            case "force_release" -> "common.action.forceRelease";
            case "reassign" -> "common.action.reassign";
            case "approve" -> "common.action.approve";
            case "reject" -> "common.action.reject";
            case "send_back" -> "common.action.sendBack";
            case "unreviewable" -> "common.action.unreviewable";
            case "quarantine" -> "common.action.quarantine";
            case "requeue" -> "common.action.requeue";
            case "import" -> "common.action.import";
            case "revision" -> "common.action.revision";
            case "relay_failed" -> "common.action.relayFailed";
            case "to_front" -> "common.action.toFront";
            case "hold" -> "common.action.hold";
            case "release_hold" -> "common.action.releaseHold";
            case "let_again" -> "common.action.letAgain";
            case "notes_handed_over" -> "common.action.notesHandedOver";
            default -> null;
        };
        return key == null ? code.replace('_', ' ') : Messages.text(key);
    }

    /** An article's state: "awaiting_writer" → "waiting for the writer". */
    public static String status(String code) {
        String key = switch (code) {
            case "queued" -> "common.status.queued";
            case "approved" -> "common.status.approved";
            case "rejected" -> "common.status.rejected";
            case "quarantined" -> "common.status.quarantined";
            case "awaiting_writer" -> "common.status.awaitingWriter";
            default -> null;
        };
        return key == null ? code.replace('_', ' ') : Messages.text(key);
    }

    /** A person's role as stored ("editor", "supervisor", "admin"). */
    public static String role(String code) {
        String key = switch (code) {
            case "editor" -> "common.role.editor";
            case "supervisor" -> "common.role.supervisor";
            case "admin" -> "common.role.admin";
            default -> null;
        };
        return key == null ? code : Messages.text(key);
    }
}
