package org.copydesk.archfixture.lease;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.UpdatableRecord;
import org.jooq.impl.DSL;

/** A claim engine in Java under another name: builds its own UPDATE and INSERT and stores records (wall 10). */
public final class ClaimEngine {
    public int take(DSLContext dsl, Table<?> article, Field<String> owner, String who) {
        return dsl.update(article).set(owner, who).where(owner.isNull()).execute();
    }

    public int log(Table<?> history, Field<String> action) {
        return DSL.insertInto(history, action).values("claim").execute();
    }

    public int keep(UpdatableRecord<?> row) {
        return row.store();
    }

    public int count(DSLContext dsl, Table<?> article) {
        return dsl.fetchCount(article);
    }
}
