package org.copydesk.bench;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.util.List;
import java.util.Map;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.Owner;
import org.copydesk.lease.ServerClock;
import org.jooq.Field;

/** An owner of the old generic Java lease engine: claim 5 ({@link ClaimBenchmark#request}), complete each with its token. */
final class EngineOwner implements OwnerLoop<Lease> {
    private final LeaseEngine engine;
    private final Owner owner;
    private final Map<Field<?>, Object> approve;

    EngineOwner(LeaseEngine engine, Owner owner) {
        this.engine = engine;
        this.owner = owner;
        this.approve = Map.of(ARTICLE.STATUS, ArticleStatus.approved, ARTICLE.DECIDED_BY, owner.name(),
                ARTICLE.DECIDED_AT, ServerClock.now());
    }

    @Override
    public List<Lease> claim() {
        return engine.claim(ClaimBenchmark.request(owner)).leases();
    }

    @Override
    public boolean complete(Lease lease) {
        return engine.complete(lease, approve, null).applied();
    }
}
