package org.copydesk.lease;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.Set;

/**
 * What a failed database call means, decided in one place for all of Copydesk: the retries of
 * every operation call, the review services, the import, the screens and the command line all ask here. The
 * JDBC exception types and the SQLSTATE class say most of it; the few MySQL/MariaDB vendor codes
 * that say more are listed below and nowhere else (model: db-scheduler's {@code JdbcCustomization}).
 *
 * <p>Every kind was seen from a real server: {@code SqlFailureTest} provokes each on the server the
 * tests run against and checks the verdict ({@code ServerFullSignInTest} fills the server for
 * {@link #SERVER_FULL}).
 */
public enum SqlFailure {

    /**
     * The server rolled the transaction back because it collided with another: a deadlock (1213,
     * SQLSTATE 40001) or a lock wait timeout (1205). On a Galera cluster a transaction that lost
     * certification to a write committed on another node gets the same 1213, at its commit. Run the
     * whole transaction again: nothing of it was kept.
     */
    CONFLICT,
    /**
     * The connection went away under the call: killed ({@code KILL CONNECTION}: 1927 on MariaDB),
     * the server shutting down (1053) or gone (SQLSTATE class 08, the driver's communication
     * failures), the pool could not get a connection in time, or a Galera node that left the
     * cluster's primary component and refuses work (1047 "WSREP has not yet prepared node"). Whether
     * the call's transaction committed is unknown: run it again only if it is safe to repeat.
     */
    CONNECTION_LOST,
    /** The server refused a value or a constraint (SQLSTATE 22, 23 and MySQL's HY000 codes for the same): the data is at fault. */
    VALUE_REFUSED,
    /**
     * No new connection: all the connections the server allows are in use (1040 "Too many
     * connections", SQLSTATE 08004), or those an account may hold (1203, or the account's own
     * {@code MAX_USER_CONNECTIONS}: 1226). The server is running and reachable and the password was
     * fine; it has no room. Not a lost connection: nothing was under way, and trying again at once
     * only adds to the crowd.
     */
    SERVER_FULL,
    /** The account's name or password was refused (1045). */
    SIGN_IN_REFUSED,
    /** The database named in the URL does not exist (1049). */
    UNKNOWN_DATABASE,
    /** The account lacks a privilege (1044, 1142, 1227, 1370). */
    PRIVILEGE_MISSING,
    /**
     * A routine the call needs is not there (1305): while {@code copydesk db migrate} makes the
     * routines again, one at a time, for about a second an operation (or a routine it calls) is
     * gone between its DROP and its CREATE. Nothing of the missing routine ran, and an operation
     * that met it part-way has rolled its work back in its handler: worth another try for a few
     * seconds ({@link TransientErrors}), and then it is what it says.
     */
    ROUTINE_MISSING,
    /** Anything else: a bug, or a refusal by a Copydesk operation (SQLSTATE 45000), shown as it is. */
    OTHER;

    static final int DEADLOCK = 1213;
    static final int LOCK_WAIT_TIMEOUT = 1205;
    /** MariaDB: "Connection was killed" (ER_CONNECTION_KILLED); MySQL answers a killed connection with 08S01. */
    static final int CONNECTION_KILLED = 1927;
    static final int SERVER_SHUTDOWN = 1053;
    /** Galera: a node outside the primary component ("WSREP has not yet prepared node for application use"). */
    static final int NODE_NOT_READY = 1047;
    /** "PROCEDURE … does not exist" (ER_SP_DOES_NOT_EXIST). */
    static final int ROUTINE_DOES_NOT_EXIST = 1305;
    /** "Cannot add or update a child row: a foreign key constraint fails" (ER_NO_REFERENCED_ROW_2). */
    static final int NO_PARENT_ROW = 1452;
    /** Client-side codes of Connector/J and the C client for a server that went away. */
    private static final Set<Integer> GONE = Set.of(2006, 2013, CONNECTION_KILLED, SERVER_SHUTDOWN, NODE_NOT_READY);
    /** MySQL/MariaDB codes for refused values that come with SQLSTATE HY000 rather than 22/23. */
    private static final Set<Integer> REFUSED_VALUES = Set.of(1048, 1153, 1292, 1301, 1366, 1406, NO_PARENT_ROW, 3819, 4025);
    private static final Set<Integer> PRIVILEGES = Set.of(1044, 1142, 1227, 1370);
    /** No connection left (see {@link #SERVER_FULL}): the server's limit, the per-account limits. */
    private static final Set<Integer> NO_CONNECTION_LEFT = Set.of(1040, 1203, 1226);

    /** The server's own words: the message of the first SQL exception in the cause chain (else the failure's). */
    public static String serverWords(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException) {
                return t.getMessage();
            }
        }
        return failure.getMessage();
    }

    /** The kind of {@code failure}, judged by the first SQL exception in its cause chain. */
    public static SqlFailure of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                return ofSql(s);
            }
            if (isSocketFailure(t)) {
                return CONNECTION_LOST;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return OTHER;
    }

    private static SqlFailure ofSql(SQLException s) {
        int code = s.getErrorCode();
        String state = s.getSQLState() == null ? "" : s.getSQLState();
        if (code == DEADLOCK || code == LOCK_WAIT_TIMEOUT || state.equals("40001")) {
            return CONFLICT;
        }
        // codes before types: the driver may wrap a refused sign-in in a connection exception
        if (code == 1045) {
            return SIGN_IN_REFUSED;
        }
        if (NO_CONNECTION_LEFT.contains(code)) {
            return SERVER_FULL;
        }
        if (code == 1049) {
            return UNKNOWN_DATABASE;
        }
        if (PRIVILEGES.contains(code)) {
            return PRIVILEGE_MISSING;
        }
        if (code == ROUTINE_DOES_NOT_EXIST) {
            return ROUTINE_MISSING;
        }
        if (s instanceof SQLTransientConnectionException || s instanceof SQLNonTransientConnectionException
                || s instanceof SQLRecoverableException || state.startsWith("08") || GONE.contains(code)
                || isSocketFailure(s.getCause())) {
            return CONNECTION_LOST;
        }
        if (state.startsWith("22") || state.startsWith("23") || REFUSED_VALUES.contains(code)) {
            return VALUE_REFUSED;
        }
        return OTHER;
    }

    /** The driver's and the JDK's names for a socket that broke (the driver wraps them in SQLExceptions, Hikari sometimes not). */
    private static boolean isSocketFailure(Throwable t) {
        if (t == null) {
            return false;
        }
        String name = t.getClass().getName();
        return name.endsWith("CommunicationsException") || name.endsWith("ConnectException")
                || name.endsWith("SocketTimeoutException") || name.endsWith("EOFException")
                || name.endsWith("SocketException");
    }

    /** The first SQL exception in {@code failure}'s cause chain. */
    public static Optional<SQLException> sqlCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                return Optional.of(s);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.empty();
    }


    /** The vendor code of the first SQL exception in the chain, 0 if none. */
    public static int vendorCode(Throwable failure) {
        return sqlCause(failure).map(SQLException::getErrorCode).orElse(0);
    }

    /**
     * Should the whole call be run again at once? Conflicts always; a lost connection only for work
     * that is safe to repeat. (What a schema change under way causes is tried again for a few
     * seconds instead: {@link #mayBeASchemaChange}.)
     */
    public boolean worthRetrying(boolean safeToRepeat) {
        return this == CONFLICT || (this == CONNECTION_LOST && safeToRepeat);
    }

    /**
     * Whether {@code failure} may come from an upgrade changing the schema under the call, and not
     * mean what it says for a few seconds: a routine missing between its DROP and its CREATE
     * ({@link #ROUTINE_MISSING}), or a foreign key's parent row not found (1452). MariaDB rebuilds a
     * table by copying it (V29's {@code ALTER TABLE desk ADD CONSTRAINT … CHECK}), and in the instant
     * it puts the copy in place, a write that checks the key again fails although the row is there: a
     * decision changes an article's status, which shares an index with {@code desk_id}, so InnoDB looks
     * the desk up again (MigrationWhileWorkingTest on MariaDB 10.11: one case of five, once). An honest
     * operation never names a parent that is not there (the importer checks desks and stages first),
     * so a 1452 that lasts is what it says, and is told as a refused value.
     */
    public static boolean mayBeASchemaChange(Throwable failure) {
        return of(failure) == ROUTINE_MISSING || vendorCode(failure) == NO_PARENT_ROW;
    }
}
