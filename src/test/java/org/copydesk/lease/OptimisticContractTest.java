package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class OptimisticContractTest extends LeaseEngineContract {

    OptimisticContractTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.OPTIMISTIC;
    }
}
