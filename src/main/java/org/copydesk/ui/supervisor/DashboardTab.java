package org.copydesk.ui.supervisor;

import org.copydesk.ui.common.Messages;

/** The dashboard's pages; each can be exported as the table it shows. */
public enum DashboardTab {
    HOLDERS("dashboard.tab.holders", "leases"), QUEUE("dashboard.tab.queue", "queue"), STAGES("dashboard.tab.stages", "stages"),
    DEADLINES("dashboard.tab.deadlines", "deadlines"),
    HEALTH("dashboard.tab.health", "queue-health"),
    EDITORS("dashboard.tab.editors", "editors"), AUDIT("dashboard.tab.audit", "audit"),
    QUARANTINE("dashboard.tab.quarantine", "quarantine"), RELAY("dashboard.tab.relay", "relay");

    private final String title;
    private final String fileStem;

    DashboardTab(String title, String fileStem) {
        this.title = title;
        this.fileStem = fileStem;
    }

    public String title() {
        return Messages.text(title);
    }

    /** A file name suggestion for the CSV export. */
    public String fileStem() {
        return fileStem;
    }
}
