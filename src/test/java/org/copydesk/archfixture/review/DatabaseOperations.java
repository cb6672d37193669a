package org.copydesk.archfixture.review;

import org.jooq.DSLContext;

/** The one class that sends statements as text: the operations' calls (wall 10's home). */
public final class DatabaseOperations {
    public int call(DSLContext dsl) {
        return dsl.execute("call claim_articles(?, ?, ?, ?, ?)", null, null, null, null, null);
    }
}
