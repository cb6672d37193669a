package org.copydesk.review.imports;

import java.sql.SQLException;

/** Sorts database errors into: try again, the row's content was refused, or the database is unavailable. */
final class SqlFailures {

    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK = 1213;

    private SqlFailures() {
    }

    static SQLException sqlCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                return s;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    static boolean isTransient(Throwable failure) {
        SQLException s = sqlCause(failure);
        return s != null && (s.getErrorCode() == DEADLOCK || s.getErrorCode() == LOCK_WAIT_TIMEOUT
                || "40001".equals(s.getSQLState()));
    }

    /**
     * The server refused a value or a constraint (data exceptions 22xxx, integrity 23xxx, and MySQL's
     * HY000 codes for bad strings and check constraints): only the rows are at fault, the connection is fine.
     */
    static boolean isRowRefused(Throwable failure) {
        SQLException s = sqlCause(failure);
        if (s == null) {
            return false;
        }
        String state = s.getSQLState() == null ? "" : s.getSQLState();
        int code = s.getErrorCode();
        return state.startsWith("22") || state.startsWith("23")
                || code == 1366 || code == 1406 || code == 1292 || code == 1048 || code == 1452
                || code == 3819 || code == 4025 || code == 1153 || code == 1301;
    }

    static String message(Throwable failure) {
        SQLException s = sqlCause(failure);
        String m = s != null ? s.getMessage() : failure.getMessage();
        return ImportText.shorten(String.valueOf(m), 400);
    }
}
