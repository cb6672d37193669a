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
        Field<String> user = DSL.function("substring_index", String.class, DSL.currentUser(), DSL.inline("@"), DSL.inline(1));
        String name = dsl.select(user).fetchOne(0, String.class);
        return new Owner(name, user);
    }

    @Override
    public String toString() {
        return name;
    }
}
