package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class BlockingRaceTest extends LeaseRaceTest {

    BlockingRaceTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.BLOCKING;
    }
}
