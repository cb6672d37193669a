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
        if (SqlFailure.of(failure) == SqlFailure.SERVER_FULL) {
            return Phrase.of("review.trouble.serverFull").text(); // at sign-in it comes wrapped in a setup problem
        }
        if (failure instanceof DatabaseSetupException || failure instanceof IllegalArgumentException) {
            return failure.getMessage();
        }
        if (failure instanceof DatabaseBusyException) {
            return Phrase.of("review.trouble.busy").text();
        }
        if (isConnectionLost(failure)) {
            return Phrase.of("review.trouble.connectionLost").text();
        }
        return SqlFailure.sqlCause(failure).map(s -> Phrase.of("review.trouble.refused", s.getMessage()).text())
                .orElseGet(() -> Phrase.of("review.trouble.other", failure.getMessage()).text());
    }
}
