package org.copydesk.archfixture.lease;

import org.copydesk.AllowedBecause;
import org.copydesk.archfixture.review.ArticleService;

/** Stays inside wall 1, except in one member with a written reason. */
public final class CleanLease {
    public long claim(java.util.List<Long> ids) {
        return ids.size();
    }

    @AllowedBecause("fixture: a method-level exception")
    public int exemptPeek(ArticleService service) {
        return service.count();
    }
}
