package org.copydesk.lease;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The database account a connection signed in as, read by the server: a client cannot forge it.
 *
 * <p>The one place that writes SQL reading the session's account (a wall in {@code ArchitectureTest}
 * holds every other class to it): {@code SUBSTRING_INDEX(CURRENT_USER(), '@', 1)}, the same on MySQL
 * and MariaDB. (Inside the database's own operations, which run with definer rights, identity comes
 * from {@code USER()} instead: there {@code CURRENT_USER()} is the definer.)
 */
public final class SessionAccount {

    private static final Field<String> NAME =
            DSL.function("substring_index", String.class, DSL.currentUser(), DSL.inline("@"), DSL.inline(1));

    private SessionAccount() {
    }

    /** The name of the account this connection signed in as, without the host part. */
    public static String name(DSLContext dsl) {
        return dsl.select(NAME).fetchOne(0, String.class);
    }
}
