package org.copydesk.archfixture.ui.app;

import org.copydesk.AllowedBecause;
import org.copydesk.archfixture.review.ArticleService;

/** Breaks wall 3 in one method; the composition-root wiring carries a reason. */
public final class Launcher {
    public int sneakyQuery(org.jooq.DSLContext dsl) {
        return dsl.fetchCount(org.jooq.impl.DSL.table("article"));
    }

    @AllowedBecause("fixture: the composition root hands the database to review services")
    public ArticleService wire(org.jooq.DSLContext dsl, java.sql.Connection connection) {
        return new ArticleService();
    }
}
