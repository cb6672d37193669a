package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import org.jooq.DatePart;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The database's clock, the only clock lease expiry is computed and compared with. Always with
 * microseconds: without the precision argument MySQL's {@code CURRENT_TIMESTAMP()} drops the
 * fraction, and expiries would be truncated to whole seconds.
 */
public final class ServerClock {

    private static final Field<LocalDateTime> NOW = DSL.currentLocalDateTime(6);

    private ServerClock() {
    }

    /** {@code CURRENT_TIMESTAMP(6)} (= {@code NOW(6)}): the server's current time, microsecond precision, in the session time zone (UTC). */
    public static Field<LocalDateTime> now() {
        return NOW;
    }

    /** {@code NOW(6) + duration}, to the millisecond. */
    public static Field<LocalDateTime> nowPlus(Duration duration) {
        return plus(NOW, duration);
    }

    public static Field<LocalDateTime> plus(Field<LocalDateTime> time, Duration duration) {
        return DSL.localDateTimeAdd(time, duration.toMillis() * 1000, DatePart.MICROSECOND);
    }
}
