package org.copydesk.lease;

/** Why a write under a lease was refused. */
public enum LostReason {
    /** The lease ran out and the release service or another claim ended it. */
    EXPIRED,
    /** Someone else holds the row now. */
    TAKEN,
    /** A supervisor released it. */
    FORCE_RELEASED,
    /** A supervisor gave it to someone else. */
    REASSIGNED,
    /** The holder (perhaps in another window) released or finished it. */
    RELEASED,
    /** The row no longer exists or no longer matches. */
    GONE
}
