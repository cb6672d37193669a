package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The database's clock, the only clock lease expiry is computed and compared with. Always with
 * microseconds: without the precision argument MySQL's {@code CURRENT_TIMESTAMP()} drops the
 * fraction, and expiries would be truncated to whole seconds.
 *
 * <p>The one place that writes SQL reading the server's clock (a wall in {@code ArchitectureTest}
 * holds every other class to it). It lives in {@code lease}, not beside the server differences in
 * {@code db}: the engine uses it in nearly every statement and may depend on nothing of ours, and
 * {@code db} already depends on {@code lease} ({@link SqlFailure}).
 */
public final class ServerClock {

    private static final Field<LocalDateTime> NOW = DSL.currentLocalDateTime(6);

    private ServerClock() {
    }

    /**
     * {@code CURRENT_TIMESTAMP(6)} (= {@code NOW(6)}): the server's current time, microsecond
     * precision, in the session time zone (UTC).
     */
    public static Field<LocalDateTime> now() {
        return NOW;
    }

    /** {@code NOW(6) + duration}, to the microsecond. */
    public static Field<LocalDateTime> nowPlus(Duration duration) {
        return plus(NOW, duration);
    }

    /**
     * {@code TIMESTAMPADD(MICROSECOND, n, time)}: the engine's one plain-SQL template, because jOOQ
     * 3.19 cannot render a microsecond (or millisecond) interval for MySQL or MariaDB, and whole
     * seconds are too coarse for short leases. Both servers support this function.
     */
    public static Field<LocalDateTime> plus(Field<LocalDateTime> time, Duration duration) {
        long micros = duration.toNanos() / 1000;
        return DSL.field("timestampadd(microsecond, {0}, {1})", SQLDataType.LOCALDATETIME(6), DSL.inline(micros), time);
    }

    /** Midnight at the start of the server's current day ({@code CAST(CURRENT_DATE AS DATETIME)}): "today" in reports. */
    public static Field<LocalDateTime> startOfToday() {
        return DSL.currentLocalDate().cast(SQLDataType.LOCALDATETIME);
    }

    /** {@code TIMESTAMPADD(SECOND, seconds, time)} for a length the server computes per row. */
    public static Field<LocalDateTime> plusSeconds(Field<LocalDateTime> time, Field<Integer> seconds) {
        return DSL.field("timestampadd(second, {0}, {1})", SQLDataType.LOCALDATETIME(6), seconds, time);
    }
}
