package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Counting what waits while the holders table holds still. */
class HeldChangesTest {

    @Test
    void theSameRowsInTheSameOrderAreNoChange() {
        assertThat(HeldChanges.between(List.of(1L, 2L, 3L), List.of(1L, 2L, 3L))).isEqualTo(HeldChanges.NONE);
        assertThat(HeldChanges.NONE.describe()).isEmpty();
    }

    @Test
    void oneRowSlidingDownPastManyCountsOnce() {
        HeldChanges c = HeldChanges.between(List.of(1L, 2L, 3L, 4L, 5L), List.of(2L, 3L, 4L, 5L, 1L));
        assertThat(c).isEqualTo(new HeldChanges(0, 0, 1));
        assertThat(c.describe()).isEqualTo("1 change waits while you work here: 1 moved.");
    }

    @Test
    void countsNewEndedAndMovedRows() {
        HeldChanges c = HeldChanges.between(List.of(1L, 2L, 3L, 4L), List.of(9L, 4L, 2L, 3L, 8L));
        assertThat(c).isEqualTo(new HeldChanges(2, 1, 1));
        assertThat(c.total()).isEqualTo(4);
        assertThat(c.describe()).isEqualTo("4 changes wait while you work here: 2 new, 1 ended, 1 moved.");
    }
}
