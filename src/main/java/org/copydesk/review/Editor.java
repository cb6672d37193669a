package org.copydesk.review;

import java.time.LocalDateTime;
import java.util.List;

/**
 * A person who reviews. {@code id} is the sign-in name and the lease owner.
 *
 * @param lastSeenAt the last heartbeat from the editor's client (server clock, UTC), or null
 */
public record Editor(String id, String displayName, Role role, int capacity, List<String> desks, LocalDateTime lastSeenAt) {

    public Editor {
        desks = List.copyOf(desks);
    }
}
