package org.copydesk.archfixture.db;

import org.jooq.DSLContext;

/** Sets up the server and its accounts, as db does: outside wall 10. */
public final class ServerSetup {
    public int createAccount(DSLContext dsl) {
        return dsl.execute("create user if not exists someone");
    }
}
