package org.copydesk.lease;

import org.copydesk.testing.TestDatabase;

class SkipLockedRaceTest extends LeaseRaceTest {

    SkipLockedRaceTest(TestDatabase db) {
        super(db);
    }

    @Override
    ClaimStrategyKind strategy() {
        return ClaimStrategyKind.SKIP_LOCKED;
    }
}
