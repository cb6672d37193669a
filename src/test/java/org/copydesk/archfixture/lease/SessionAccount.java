package org.copydesk.archfixture.lease;

import org.jooq.Field;
import org.jooq.impl.DSL;

/** The home of the session's account: may read it (wall 8). */
public final class SessionAccount {
    public static Field<String> name() {
        return DSL.currentUser();
    }
}
