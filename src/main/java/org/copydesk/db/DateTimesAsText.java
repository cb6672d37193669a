package org.copydesk.db;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Calendar;
import javax.sql.DataSource;

/**
 * A data source whose prepared statements send date-time parameters that have a fraction of a
 * second as text ({@code 2030-01-01 10:00:00.123456}), which the server converts to DATETIME(6)
 * with the fraction kept. Used only where Connector/J would otherwise cut the fraction off (see
 * {@link ServerCapabilities#driverDropsFractionalSeconds()}); chosen in {@link DataSources#forServer}.
 *
 * <p>Covers what Copydesk binds: {@link LocalDateTime} and {@link Timestamp} (jOOQ and plain JDBC).
 * Values without a fraction, and everything else, go to the driver unchanged (Copydesk binds no
 * {@code OffsetDateTime} or {@code Instant}; the driver would turn those into the JVM's wall clock).
 */
final class DateTimesAsText {

    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

    private DateTimesAsText() {
    }

    static DataSource wrap(DataSource dataSource) {
        return proxy(DataSource.class, dataSource, (target, method, args) -> {
            Object result = invoke(target, method, args);
            return result instanceof Connection c && method.getName().equals("getConnection") ? connection(c) : result;
        });
    }

    static Connection connection(Connection connection) {
        return proxy(Connection.class, connection, (target, method, args) -> {
            Object result = invoke(target, method, args);
            if (result instanceof CallableStatement call && method.getName().equals("prepareCall")) {
                return proxy(CallableStatement.class, call, DateTimesAsText::bind);
            }
            if (result instanceof PreparedStatement ps && method.getName().equals("prepareStatement")) {
                return proxy(PreparedStatement.class, ps, DateTimesAsText::bind);
            }
            return result;
        });
    }

    /** The text to send instead of {@code value}, or null to send the value as it is. */
    static String asText(Object value, Calendar calendar) {
        LocalDateTime local;
        if (value instanceof LocalDateTime ldt) {
            local = ldt;
        } else if (value instanceof Timestamp ts) {
            // As the driver would (preserveInstants=false): the wall clock in the JVM's zone, or the calendar's.
            local = calendar == null ? ts.toLocalDateTime()
                    : ts.toInstant().atZone(calendar.getTimeZone().toZoneId()).toLocalDateTime();
        } else {
            return null;
        }
        return local.getNano() == 0 ? null : TEXT.format(local);
    }

    /** setTimestamp(i, v[, cal]) and setObject(i, v[, …]) with a fraction become setString(i, text). */
    private static Object bind(Object target, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if ((name.equals("setTimestamp") || name.equals("setObject")) && args != null && args.length >= 2
                && args[0] instanceof Integer index) {
            Calendar calendar = name.equals("setTimestamp") && args.length == 3 && args[2] instanceof Calendar c ? c : null;
            String text = asText(args[1], calendar);
            if (text != null) {
                ((PreparedStatement) target).setString(index, text);
                return null;
            }
        }
        return invoke(target, method, args);
    }

    private interface Handler {
        Object handle(Object target, Method method, Object[] args) throws Throwable;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        InvocationHandler h = (proxy, method, args) -> switch (method.getName()) {
            case "equals" -> args != null && args.length == 1 && proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "DateTimesAsText(" + target + ")";
            default -> handler.handle(target, method, args);
        };
        return (T) Proxy.newProxyInstance(DateTimesAsText.class.getClassLoader(), new Class<?>[] {type}, h);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
