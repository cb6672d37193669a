package org.copydesk.lease;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Who claims. Either a name the caller vouches for, or the database session's own authenticated
 * user, which a client cannot forge.
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
        return session(dsl.select(SESSION_USER).fetchOne(0, String.class));
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
