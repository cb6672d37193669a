package org.copydesk.db;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Where a database is. A configured server stays where its URL says; the embedded server can come
 * back on another port after it stopped, so its location is asked again, and
 * told to find the server, when connections fail.
 */
public interface ServerLocation {

    /** The JDBC URL to connect to now. */
    String jdbcUrl();

    /**
     * Called after connections failed: finds the server again (which may start it). True when
     * {@link #jdbcUrl()} may now say something else.
     */
    default boolean findAgain() {
        return false;
    }

    /** A server that stays at {@code url}. */
    static ServerLocation fixed(String url) {
        return () -> url;
    }

    /** A server whose URL {@code url} tells, found again by {@code findAgain}. */
    static ServerLocation following(Supplier<String> url, BooleanSupplier findAgain) {
        return new ServerLocation() {
            @Override
            public String jdbcUrl() {
                return url.get();
            }

            @Override
            public boolean findAgain() {
                return findAgain.getAsBoolean();
            }
        };
    }
}
