package org.copydesk.review.imports;

import java.sql.SQLException;
import org.copydesk.lease.SqlFailure;

/** The import's questions about a database error, answered by {@link SqlFailure} (the one classifier). */
final class SqlFailures {

    private SqlFailures() {
    }

    static SQLException sqlCause(Throwable failure) {
        return SqlFailure.sqlCause(failure).orElse(null);
    }

    static boolean isTransient(Throwable failure) {
        return SqlFailure.of(failure) == SqlFailure.CONFLICT;
    }

    /** The server refused a value or a constraint: only the rows are at fault, the connection is fine. */
    static boolean isRowRefused(Throwable failure) {
        return SqlFailure.of(failure) == SqlFailure.VALUE_REFUSED;
    }

    static String message(Throwable failure) {
        SQLException s = sqlCause(failure);
        String m = s != null ? s.getMessage() : failure.getMessage();
        return ImportText.shorten(String.valueOf(m), 400);
    }
}
