package org.copydesk.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A server-wide lock for the tests that abandon prepared XA transactions and sweep them with a
 * short {@code xa_seconds}: {@code XA RECOVER} lists the whole server's, so on a server the suite's
 * test JVMs share, one class's sweep rolled back another class's transaction before that class had
 * looked at it. Held on a connection of its own ({@code GET_LOCK}) for a test's duration; another
 * JVM's test waits for it.
 */
public final class XaTestsOneAtATime implements AutoCloseable {

    private static final String LOCK = "copydesk-tests-abandoned-xa";
    private final Connection connection;

    private XaTestsOneAtATime(Connection connection) {
        this.connection = connection;
    }

    public static XaTestsOneAtATime take(TestServer.Endpoint server) {
        try {
            Connection c = server.adminConnection();
            try (PreparedStatement s = c.prepareStatement("SELECT GET_LOCK(?, 300)")) {
                s.setString(1, LOCK);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next() || rs.getInt(1) != 1) {
                        c.close();
                        throw new IllegalStateException("another test JVM held " + LOCK + " for 5 minutes");
                    }
                }
            }
            return new XaTestsOneAtATime(c);
        } catch (SQLException e) {
            throw new IllegalStateException("could not take " + LOCK, e);
        }
    }

    /** Lets the next class's XA tests run; nothing when {@code held} is null (it was never taken). */
    public static void release(XaTestsOneAtATime held) {
        if (held != null) {
            held.close();
        }
    }

    @Override
    public void close() {
        try {
            connection.close(); // ends the session, and with it the lock
        } catch (SQLException e) {
            throw new IllegalStateException("could not end the session holding " + LOCK, e);
        }
    }
}
