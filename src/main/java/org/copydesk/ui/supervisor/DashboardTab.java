package org.copydesk.ui.supervisor;

/** The dashboard's pages; each can be exported as the table it shows. */
public enum DashboardTab {
    HOLDERS("Who holds what", "leases"), HEALTH("Queue health", "queue-health"), EDITORS("Editors", "editors"),
    AUDIT("Audit", "audit"), QUARANTINE("Quarantine", "quarantine"),
    RELAY("Relay", "relay");

    private final String title;
    private final String fileStem;

    DashboardTab(String title, String fileStem) {
        this.title = title;
        this.fileStem = fileStem;
    }

    public String title() {
        return title;
    }

    /** A file name suggestion for the CSV export. */
    public String fileStem() {
        return fileStem;
    }
}
