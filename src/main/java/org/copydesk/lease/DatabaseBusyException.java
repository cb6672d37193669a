package org.copydesk.lease;

/**
 * The server kept answering "deadlock" or "lock wait timeout" after every bounded retry. Screens and
 * commands show it as "the database is busy, try again" (the message says which call, for the log);
 * it is rare enough to be worth logging.
 */
public class DatabaseBusyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
