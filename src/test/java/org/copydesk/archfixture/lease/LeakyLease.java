package org.copydesk.archfixture.lease;

import org.copydesk.archfixture.review.ArticleService;

/** Breaks wall 1 (lease knows the newsroom) and, with ArticleService, wall 7 (a lease-review cycle). */
public final class LeakyLease {
    public int peek(ArticleService service) {
        return service.count();
    }

    public Object colour() {
        return javafx.scene.paint.Color.RED;
    }
}
