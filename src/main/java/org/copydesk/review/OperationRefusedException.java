package org.copydesk.review;

import java.sql.SQLException;
import java.util.Optional;

/**
 * The database refused an operation by its own rules (a Copydesk procedure signalled SQLSTATE
 * 45000). The message is the database's, in plain words, for the person who asked. It is a kind of
 * {@link IllegalArgumentException}, as every screen and command already shows those as they are:
 * the request was not one the rules allow.
 */
public final class OperationRefusedException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    private static final String PREFIX = "Copydesk: ";

    OperationRefusedException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The refusal inside {@code failure}, if the failure is one; its message as a sentence. */
    public static Optional<OperationRefusedException> of(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException s && "45000".equals(s.getSQLState()) && s.getMessage() != null
                    && s.getMessage().startsWith(PREFIX)) {
                String text = s.getMessage().substring(PREFIX.length());
                text = Character.toUpperCase(text.charAt(0)) + text.substring(1);
                return Optional.of(new OperationRefusedException(text.endsWith(".") ? text : text + ".", failure));
            }
        }
        return Optional.empty();
    }
}
