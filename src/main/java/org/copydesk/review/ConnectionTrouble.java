package org.copydesk.review;

import org.copydesk.db.ConnectionProblems;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.lease.DatabaseBusyException;
import org.copydesk.lease.SqlFailure;

/**
 * Tells a lost connection (the client goes offline and retries) from other failures (the message
 * is shown), through {@link SqlFailure} and, for a connection cut while it was being set up,
 * {@link ConnectionProblems}. Lives here so that the UI and the command line never handle JDBC or
 * jOOQ types themselves.
 */
public final class ConnectionTrouble {

    private ConnectionTrouble() {
    }

    public static boolean isConnectionLost(Throwable failure) {
        return ConnectionProblems.connectionLost(failure);
    }

    /**
     * A message for people in one line: never a class name, never the SQL that failed (jOOQ puts it
     * in its messages), never a stack trace.
     */
    public static String describe(Throwable failure) {
        if (failure instanceof DatabaseSetupException || failure instanceof IllegalArgumentException
                || failure instanceof DatabaseBusyException) {
            return failure.getMessage();
        }
        if (isConnectionLost(failure)) {
            return "The connection to the database was lost before this finished (the server stopped or restarted, cannot be"
                    + " reached, or an admin ended the session). Check that it runs, then try again.";
        }
        return SqlFailure.sqlCause(failure).map(s -> "The database refused this: " + s.getMessage())
                .orElse("Something went wrong: " + failure.getMessage());
    }
}
