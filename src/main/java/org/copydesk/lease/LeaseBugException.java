package org.copydesk.lease;

/**
 * A conditional write by key changed more than one row: the key handles given to the engine do
 * not identify rows. Never retried, never hidden.
 */
public class LeaseBugException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public LeaseBugException(String message) {
        super(message);
    }
}
