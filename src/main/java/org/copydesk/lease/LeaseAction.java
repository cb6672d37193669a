package org.copydesk.lease;

import java.util.Locale;

/** What happened to a lease; written to the event log as the lower-case name. */
public enum LeaseAction {
    CLAIM, REFRESH, RENEW, RELEASE, EXPIRE, COMPLETE, FORCE_RELEASE, REASSIGN, EXTEND;

    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
