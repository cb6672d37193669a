package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class OptimisticRaceTest extends LeaseRaceTest {

    OptimisticRaceTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.OPTIMISTIC;
    }
}
