package org.copydesk.ui.supervisor;

import java.time.Duration;
import org.copydesk.ui.common.Messages;

/** Whether a person is at work, from how long ago their client last sent a heartbeat. */
public enum Presence {
    ACTIVE("dashboard.presence.active"), IDLE("dashboard.presence.idle"), OFFLINE("dashboard.presence.offline");

    private final String label;

    Presence(String label) {
        this.label = label;
    }

    public String label() {
        return Messages.text(label);
    }

    /** {@code sinceSeen} null means never seen. */
    public static Presence of(Duration sinceSeen, Duration idleAfter, Duration offlineAfter) {
        if (sinceSeen == null || sinceSeen.compareTo(offlineAfter) >= 0) {
            return OFFLINE;
        }
        return sinceSeen.compareTo(idleAfter) >= 0 ? IDLE : ACTIVE;
    }
}
