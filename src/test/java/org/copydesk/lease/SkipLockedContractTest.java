package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class SkipLockedContractTest extends LeaseEngineContract {

    SkipLockedContractTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.SKIP_LOCKED;
    }
}
