package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class BlockingContractTest extends LeaseEngineContract {

    BlockingContractTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.BLOCKING;
    }
}
