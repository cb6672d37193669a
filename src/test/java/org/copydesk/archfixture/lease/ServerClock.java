package org.copydesk.archfixture.lease;

import java.time.LocalDateTime;
import org.jooq.Field;
import org.jooq.impl.DSL;

/** The home of the server's clock: may read it (wall 8). */
public final class ServerClock {
    public static Field<LocalDateTime> now() {
        return DSL.currentLocalDateTime(6);
    }
}
