package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.review.Editor;
import org.copydesk.review.QueueStatistics.EditorLoad;

/**
 * Who on the floor is signed in now and how much each holds, for the person pickers: a
 * supervisor giving work away wants someone at the screen with room left, and should see that
 * before choosing rather than learn it from the capacity question afterwards.
 *
 * <p>Presence comes from a read of everyone's last heartbeat (by the server's clock, so a
 * supervisor's wrong clock cannot make anyone look signed in); it is aged on the local ticker
 * between reads. What each holds comes from the live leases the dashboard keeps current anyway,
 * so it follows every claim and release without a read of its own.
 */
final class FloorStanding {

    /** A person as the picker describes them. */
    record Standing(Presence presence, int held, int capacity) {

        boolean signedIn() {
            return presence == Presence.ACTIVE;
        }

        boolean full() {
            return held >= capacity;
        }

        /** Signed in with room first, then idle with room, then the full, then the signed out. */
        int rank() {
            if (presence == Presence.OFFLINE) {
                return 3;
            }
            if (full()) {
                return 2;
            }
            return signedIn() ? 0 : 1;
        }
    }

    private final Map<String, Duration> sinceSeenAtRead = new HashMap<>();
    private final Map<String, Integer> held = new HashMap<>();
    private long readAtNanos;
    private boolean seenRead;
    private boolean liveHeld;

    /** Everyone's last heartbeat as just read, {@code readAtNanos} on the local ticker. */
    void seen(List<EditorLoad> loads, long readAtNanos) {
        sinceSeenAtRead.clear();
        for (EditorLoad l : loads) {
            if (l.sinceSeen() != null) {
                sinceSeenAtRead.put(l.id(), l.sinceSeen());
            }
            if (!liveHeld) {
                held.put(l.id(), l.held()); // until the live leases are read
            }
        }
        this.readAtNanos = readAtNanos;
        seenRead = true;
    }

    /** How many leases each person holds now, from the live leases (everyone, all desks). */
    void held(Map<String, Integer> heldNow) {
        held.clear();
        held.putAll(heldNow);
        liveHeld = true;
    }

    /** Whether presence has been read at least once (until then the pickers say nothing about it). */
    boolean known() {
        return seenRead;
    }

    Standing of(Editor e, long nowNanos, Duration idleAfter, Duration offlineAfter) {
        Duration atRead = sinceSeenAtRead.get(e.id());
        Duration since = atRead == null ? null : atRead.plusNanos(Math.max(0, nowNanos - readAtNanos));
        return new Standing(Presence.of(since, idleAfter, offlineAfter), held.getOrDefault(e.id(), 0), e.capacity());
    }
}
