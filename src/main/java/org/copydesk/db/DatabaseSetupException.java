package org.copydesk.db;

/**
 * A problem an admin or user can act on while connecting or preparing the database (unreachable
 * server, wrong password, server too old, schema out of date). The message is written for people:
 * one or two plain sentences that say what to do.
 */
public class DatabaseSetupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseSetupException(String message) {
        super(message);
    }

    public DatabaseSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
