package org.copydesk.db;

import java.sql.SQLException;
import org.copydesk.lease.SqlFailure;

/**
 * Turns driver exceptions met while connecting into one sentence a person can act on. The cause
 * stays attached for the log.
 */
final class ConnectionProblems {

    private ConnectionProblems() {
    }

    static DatabaseSetupException explain(String url, String user, Throwable failure) {
        SQLException sql = SqlFailure.sqlCause(failure).orElse(null);
        String where = url == null ? "the database" : "the database at " + redact(url);
        if (SqlFailure.isTooManyConnections(failure)) {
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
            if (String.valueOf(sql.getMessage()).contains("Public Key Retrieval is not allowed")) {
                // MySQL 8's caching_sha2_password: without TLS the driver must fetch the server's RSA
                // key to send the password, which it refuses to do unasked (anyone in between could
                // hand it a key of their own). Seen on a first sign-in after the server started.
                return new DatabaseSetupException("The server at " + redact(url) + " wants the password of '" + user
                        + "' sent encrypted (MySQL 8's caching_sha2_password), and this connection has TLS turned off."
                        + " Use --ssl-mode PREFERRED (the default) or REQUIRED, so it travels over TLS.", failure);
            }
            if (mentions(failure, "insecure transport")) {
                return new DatabaseSetupException("The server at " + redact(url) + " accepts TLS connections only (a shared"
                        + " embedded server does): leave out sslMode=DISABLED and use the --db-url copydesk server printed.", failure);
            }
            if (causedBy(failure, javax.net.ssl.SSLHandshakeException.class)) {
                return new DatabaseSetupException("The server at " + redact(url) + " is not the one this connection trusts: its"
                        + " TLS certificate was refused (" + rootMessage(failure) + "). Check the truststore in the URL (the"
                        + " copydesk-server.p12 of that server) or the server's name.", failure);
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

    /** Removes a password given inside the URL. */
    static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
