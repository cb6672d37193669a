package org.copydesk.lease;

/**
 * The server kept answering "deadlock" or "lock wait timeout" after every bounded retry. Callers
 * show it as "the database is busy, try again"; it is rare enough to be worth logging.
 */
public class DatabaseBusyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
