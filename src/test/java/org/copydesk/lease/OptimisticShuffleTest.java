package org.copydesk.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/** After a lost compare-and-set, the optimistic claim reorders only inside a rank (no database needed: pure ordering). */
class OptimisticShuffleTest {

    private static final Field<Long> ID = DSL.field("id", SQLDataType.BIGINT);
    private static final Field<Integer> PRIORITY = DSL.field("priority", SQLDataType.INTEGER);
    private static final Field<Integer> LANE = DSL.field("queue_lane", SQLDataType.INTEGER);

    @Test
    void ranksKeepTheirOrderAndEachRankKeepsItsRows() {
        DSLContext dsl = DSL.using(SQLDialect.MARIADB);
        List<Record> rows = new ArrayList<>();
        long id = 0;
        for (int[] rank : new int[][] {{1, 0}, {1, 1}, {2, 0}, {3, 1}}) {
            for (int i = 0; i < 30; i++) {
                Record r = dsl.newRecord(ID, PRIORITY, LANE);
                r.set(ID, id++);
                r.set(PRIORITY, rank[0]);
                r.set(LANE, rank[1]);
                rows.add(r);
            }
        }
        List<Record> before = List.copyOf(rows);

        OptimisticClaims.shuffleWithinRanks(rows, List.of(PRIORITY, LANE));

        for (int block = 0; block < 4; block++) {
            List<Long> was = before.subList(block * 30, block * 30 + 30).stream().map(r -> r.get(ID)).toList();
            List<Long> now = rows.subList(block * 30, block * 30 + 30).stream().map(r -> r.get(ID)).toList();
            assertThat(now).containsExactlyInAnyOrderElementsOf(was);
        }
        assertThat(rows.stream().map(r -> r.get(ID)).toList())
                .as("30 rows a rank: staying in order by chance would take 4 × 1/30! luck")
                .isNotEqualTo(before.stream().map(r -> r.get(ID)).toList());
    }
}
