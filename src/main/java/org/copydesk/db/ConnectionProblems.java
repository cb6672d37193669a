package org.copydesk.db;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.copydesk.lease.SqlFailure;

/**
 * Turns driver exceptions met while connecting into one sentence a person can act on. The cause
 * stays attached for the log. Also the one place that knows how a connection cut while connecting
 * shows up when no SQL state says so (see {@link #connectionLost}).
 */
public final class ConnectionProblems {

    /** What a closed connection says when the layer that met it gives no SQL state (Flyway's calls on it). */
    private static final String CLOSED = "Connection is closed";
    /** Flyway's words when the server's version read on a connection that was cut came back empty. */
    private static final String NO_VERSION = "Unable to determine version from ''";

    private ConnectionProblems() {
    }

    /**
     * True if {@code failure} means the connection went away (or was never made). Mostly
     * {@link SqlFailure} says so; a connection cut while Flyway was checking the schema also reaches
     * the caller as Flyway's "Connection is closed" without an SQL state, or as an empty server
     * version ("Unable to determine version from ''"): seen by cutting a sign-in's connection at
     * each point of its conversation.
     */
    public static boolean connectionLost(Throwable failure) {
        if (refusedWhileConnecting(failure)) {
            return false;
        }
        if (SqlFailure.of(failure) == SqlFailure.CONNECTION_LOST) {
            return true;
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() == null && CLOSED.equals(s.getMessage())) {
                return true;
            }
            if (t.getClass().getName().startsWith("org.flywaydb.") && NO_VERSION.equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code failure} as {@link SqlFailure} would call it a lost connection when {@link #connectionLost}
     * says it is one, so that the retry policy treats it as one (SQL state 08003, "connection does
     * not exist"); other failures as they are.
     */
    public static RuntimeException recognised(RuntimeException failure) {
        if (refusedWhileConnecting(failure)) {
            // the driver reports these as a failed connection (SQL state 08): kept as suppressed, not as the
            // cause, so that no retry policy tries again what is refused every time and ends "connection cut"
            DatabaseSetupException refused = new DatabaseSetupException(failure.getMessage());
            refused.addSuppressed(failure);
            return refused;
        }
        if (SqlFailure.of(failure) == SqlFailure.CONNECTION_LOST || !connectionLost(failure)) {
            return failure;
        }
        return new DatabaseSetupException(failure.getMessage(),
                new SQLNonTransientConnectionException(CLOSED, "08003", failure));
    }

    /**
     * True if the server answered and refused the connection for a reason trying again does not
     * change: it accepts TLS connections only and this one has TLS turned off, its certificate is
     * not the one this connection trusts, or the password would have to travel unencrypted.
     */
    static boolean refusedWhileConnecting(Throwable failure) {
        return tlsOnly(failure) || certificateRefused(failure) || passwordWouldTravelUnencrypted(failure);
    }

    private static boolean tlsOnly(Throwable failure) {
        return mentions(failure, "insecure transport");
    }

    private static boolean certificateRefused(Throwable failure) {
        return causedBy(failure, SSLHandshakeException.class);
    }

    private static boolean passwordWouldTravelUnencrypted(Throwable failure) {
        return mentions(failure, "Public Key Retrieval is not allowed");
    }

    /**
     * True if the server was never reached: nothing listens at the address, the host name is
     * unknown, there is no route, or connecting timed out. (A connection that was made and then cut
     * is not this.)
     */
    public static boolean neverReached(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
                    || (t instanceof SocketTimeoutException && String.valueOf(t.getMessage()).contains("connect timed out"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The sentence for a sign-in that gave up on a lost connection: the server cannot be reached,
     * or it was reached and the connection was cut each time it was tried for {@code triedFor}.
     */
    public static DatabaseSetupException signInLost(String url, Throwable failure, Duration triedFor) {
        if (neverReached(failure)) {
            return new DatabaseSetupException("Cannot reach the database at " + place(url)
                    + ". Check that the server is running and the host and port are right.", failure);
        }
        return new DatabaseSetupException("Signing in to the database at " + place(url) + " did not finish: the connection"
                + " was cut each time it was tried for " + triedFor.toSeconds() + " s (the server restarting or stopping, or"
                + " the network or an admin ending connections). Check that the server runs, then sign in again.", failure);
    }

    /** Where the database is, for people: host, port and database name, without the driver's prefix and options. */
    static String place(String url) {
        return redact(url).replaceFirst("^jdbc:mysql:(?:[a-z]+:)?//", "").replaceAll("\\?.*", "");
    }

    static DatabaseSetupException explain(String url, String user, Throwable failure) {
        SQLException sql = SqlFailure.sqlCause(failure).orElse(null);
        String where = url == null ? "the database" : "the database at " + redact(url);
        if (SqlFailure.of(failure) == SqlFailure.SERVER_FULL) {
            return new DatabaseSetupException("The database at " + (url == null ? "its address" : redact(url))
                    + " has too many connections open" + (user == null ? "" : " (for '" + user + "' or in all)")
                    + ", so it refused a new one. Close other Copydesk windows or commands of this account, or try again"
                    + " in a minute; your user name and password were not the problem.", failure);
        }
        if (sql != null) {
            SqlFailure kind = SqlFailure.of(sql);
            if (kind == SqlFailure.SIGN_IN_REFUSED) {
                return new DatabaseSetupException("The database refused the user name or password"
                        + (user == null ? "" : " for '" + user + "'") + ". Check them and sign in again.", failure);
            }
            if (kind == SqlFailure.UNKNOWN_DATABASE) {
                return new DatabaseSetupException("The database named in " + redact(url)
                        + " does not exist. Ask an admin to create it, or correct the URL.", failure);
            }
            if (kind == SqlFailure.PRIVILEGE_MISSING) {
                return new DatabaseSetupException("Your database account lacks a privilege Copydesk needs ("
                        + sql.getMessage() + "). Ask an admin to check its grants.", failure);
            }
            if (passwordWouldTravelUnencrypted(failure)) {
                // MySQL 8's caching_sha2_password: without TLS the driver must fetch the server's RSA
                // key to send the password, which it refuses to do unasked (anyone in between could
                // hand it a key of their own). Seen on a first sign-in after the server started.
                return new DatabaseSetupException("The server at " + redact(url) + " wants the password of '" + user
                        + "' sent encrypted (MySQL 8's caching_sha2_password), and this connection has TLS turned off."
                        + " Use --ssl-mode PREFERRED (the default) or REQUIRED, so it travels over TLS.", failure);
            }
            if (mentions(failure, "SSL connection required for plugin \"mysql_clear_password\"")) {
                // a directory account (PAM): the server asks for the password in clear, and the driver
                // sends it only inside TLS; it was not sent
                return new DatabaseSetupException("'" + user + "' signs in with the newsroom's directory password, which is sent"
                        + " only over an encrypted connection, and this one has TLS turned off. Use --ssl-mode REQUIRED (or"
                        + " VERIFY_CA / VERIFY_IDENTITY with the server's certificate); the password was not sent.", failure);
            }
            if (tlsOnly(failure)) {
                return new DatabaseSetupException("The server at " + redact(url) + " accepts TLS connections only (a shared"
                        + " embedded server does): leave out sslMode=DISABLED and use the --db-url copydesk server printed.", failure);
            }
            if (certificateRefused(failure)) {
                return new DatabaseSetupException("The server at " + redact(url) + " is not the one this connection trusts: its"
                        + " TLS certificate was refused (" + rootMessage(failure) + "). Check the truststore in the URL (the"
                        + " copydesk-server.p12 of that server) or the server's name.", failure);
            }
            // "The last packet successfully received from the server was …": it answered, then the connection was cut
            if (kind == SqlFailure.CONNECTION_LOST && !neverReached(failure)
                    && String.valueOf(sql.getMessage()).contains("last packet successfully received")) {
                return new DatabaseSetupException("The connection to " + where + " was cut while connecting (the server"
                        + " restarting or stopping, or the network or an admin ending connections). Check that the server"
                        + " runs, then try again.", failure);
            }
            if (kind == SqlFailure.CONNECTION_LOST) {
                return new DatabaseSetupException("Cannot reach " + where
                        + ". Check that the server is running and the host and port are right.", failure);
            }
            return new DatabaseSetupException("Cannot connect to " + where + ": " + sql.getMessage(), failure);
        }
        if (failure instanceof DatabaseSetupException d) {
            return d;
        }
        return new DatabaseSetupException("Cannot connect to " + where + ": " + failure.getMessage(), failure);
    }

    private static boolean mentions(Throwable failure, String words) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(words)) {
                return true;
            }
        }
        return false;
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        String message = String.valueOf(t.getMessage());
        return message.length() > 120 ? message.substring(0, 120) + "…" : message;
    }

    /** Removes a password given inside the URL: a parameter, a host's property, or {@code user:password@}. */
    static String redact(String url) {
        return url.replaceAll("(?i)(password\\d?=)[^&,)]*", "$1***").replaceAll("//([^/@?:]*):[^/@?]*@", "//$1:***@");
    }
}
