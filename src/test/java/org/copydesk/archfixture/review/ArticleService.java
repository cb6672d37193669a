package org.copydesk.archfixture.review;

import org.copydesk.archfixture.lease.CleanLease;

/** A review service; its use of the lease package closes the lease-review cycle. */
public class ArticleService {
    private final CleanLease lease = new CleanLease();

    public int count() {
        return (int) lease.claim(java.util.List.of());
    }
}
