package org.copydesk.db;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool's check of a connection before lending it, left out for the calls that need none.
 *
 * <p>HikariCP pings a connection that sat unused for more than half a second before lending it, so
 * that a connection the server closed (a restart, an administrator, a network cut) is replaced
 * before a statement meets it. For an editor's key or click that check is worth its round trip:
 * their call then never meets a dead connection. For the calls an untouched window makes on its own
 * (the list watch, presence, the newsroom's sweep turn) it is not: each of them may simply run again
 * on a fresh connection when its first try finds the connection dead (the pool drops a connection
 * whose statement failed that way), and nobody waits on them. Seconds apart, a ping costs the
 * server about as much as the statement after it (a round trip that wakes the server's thread
 * pool: docs/benchmarks.md, "Idle editors"), so a window that is only watching halves its round
 * trips without it.
 *
 * <p>{@link #skippedFor} leaves out the check of the first connection its call borrows, on this
 * thread; the first statement sent ends the skip, so a second try after a failure borrows a checked
 * connection. The pool's own checks (a new connection's, keep-alive) are not affected.
 */
public final class ConnectionCheck {

    private static final ThreadLocal<Boolean> SKIP = new ThreadLocal<>();

    private ConnectionCheck() {
    }

    /**
     * Runs {@code call} with the pool's check of the connection it borrows first left out. Only for
     * a call that runs again on a fresh connection when the first try meets a dead one (a read, or
     * an operation safe to repeat) and that nobody is waiting on.
     */
    public static <T> T skippedFor(Supplier<T> call) {
        Boolean outer = SKIP.get();
        SKIP.set(Boolean.TRUE);
        try {
            return call.get();
        } finally {
            if (outer == null) {
                SKIP.remove();
            } else {
                SKIP.set(outer);
            }
        }
    }

    /** Whether the check is being left out on this thread now (for tests). */
    static boolean skipping() {
        return SKIP.get() != null;
    }

    /**
     * {@code driver}'s connections, answering the pool's check ({@link Connection#isValid}) without
     * asking the server while {@link #skippedFor} is in force on the calling thread.
     */
    static DataSource checkedUnlessSkipped(DataSource driver) {
        return new Source(driver);
    }

    private record Source(DataSource driver) implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            return wrap(driver.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return wrap(driver.getConnection(username, password));
        }

        private static Connection wrap(Connection connection) {
            return (Connection) Proxy.newProxyInstance(ConnectionCheck.class.getClassLoader(), new Class<?>[] {Connection.class},
                    new Skipping(connection));
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return driver.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            driver.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            driver.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return driver.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return driver.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            return driver.unwrap(type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return driver.isWrapperFor(type);
        }
    }

    /** The driver's connection, with {@code isValid} answered here while the check is left out. */
    private record Skipping(Connection connection) implements InvocationHandler {

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (SKIP.get() != null) {
                if (method.getName().equals("isValid")) {
                    return !connection.isClosed();
                }
                if (sendsStatement(method.getName())) {
                    SKIP.remove(); // the call's first statement: a second try checks its connection again
                }
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private static boolean sendsStatement(String name) {
            return name.equals("prepareStatement") || name.equals("prepareCall") || name.equals("createStatement");
        }
    }
}
