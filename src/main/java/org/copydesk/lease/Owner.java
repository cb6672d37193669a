package org.copydesk.lease;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Who claims. Either a name the caller vouches for, or the database session's own authenticated
 * user, which a client cannot forge.
 *
 * <p>The one place that writes SQL reading the session's account (a wall in
 * {@code ArchitectureTest} holds every other class to it): {@code SUBSTRING_INDEX(CURRENT_USER(),
 * '@', 1)}, the same on MySQL and MariaDB. It stays in {@code lease} with {@link ServerClock}
 * because the engine needs it and may depend on nothing of ours. (Inside the database's own
 * procedures, which run with definer rights, identity comes from {@code USER()} instead: there
 * {@code CURRENT_USER()} is the definer.)
 */
public record Owner(String name, Field<String> sql) {

    /** A name supplied by the caller (trusted deployments, tests, the embedded server). */
    public static Owner named(String name) {
        if (name == null || name.isBlank() || name.length() > 64) {
            throw new IllegalArgumentException("an owner name is 1 to 64 characters");
        }
        return new Owner(name, DSL.val(name));
    }

    /**
     * The session's authenticated user name ({@code CURRENT_USER()} without the host part), read
     * by the server inside every statement. The name is looked up once for events and results.
     */
    public static Owner sessionUser(DSLContext dsl) {
        return session(sessionUserName(dsl));
    }

    /** The session's user, whose name the caller has already read with {@link #sessionUserName}. */
    public static Owner session(String knownName) {
        return new Owner(knownName, SESSION_USER);
    }

    /** The name of the account this connection signed in as. */
    public static String sessionUserName(DSLContext dsl) {
        return dsl.select(SESSION_USER).fetchOne(0, String.class);
    }

    private static final Field<String> SESSION_USER =
            DSL.function("substring_index", String.class, DSL.currentUser(), DSL.inline("@"), DSL.inline(1));

    @Override
    public String toString() {
        return name;
    }
}
