package org.copydesk.review;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Tells a lost connection (the client goes offline and retries) from other failures (the message
 * is shown). Lives here so that the UI never handles JDBC types itself.
 */
public final class ConnectionTrouble {

    private ConnectionTrouble() {
    }

    public static boolean isConnectionLost(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException) {
                return true; // the pool could not get a connection in time
            }
            if (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08")) {
                return true; // connection exception class
            }
            String name = t.getClass().getName();
            if (name.endsWith("CommunicationsException") || name.endsWith("ConnectException")
                    || name.endsWith("SocketTimeoutException") || name.endsWith("EOFException")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** A message for people: the deepest cause's message without class names. */
    public static String describe(Throwable failure) {
        if (failure instanceof org.copydesk.db.DatabaseSetupException || failure instanceof IllegalArgumentException
                || failure instanceof org.copydesk.lease.DatabaseBusyException) {
            return failure.getMessage();
        }
        if (isConnectionLost(failure)) {
            return "Copydesk cannot reach the database right now.";
        }
        return "Something went wrong: " + failure.getMessage();
    }
}
