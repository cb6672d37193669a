package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.copydesk.review.Supervision.ActiveLease;
import org.junit.jupiter.api.Test;

/** The live holders table as plain Java: merge, expiry, filter, grouping and sort, without JavaFX or a database. */
class HoldersTableTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 23, 14, 0);
    private static final Map<String, String> DESKS = Map.of("news", "News", "sport", "Sport", "a-desk", "Zebra");

    private final HoldersTable table = new HoldersTable(id -> DESKS.getOrDefault(id, id));

    private static ActiveLease lease(long id, String title, String desk, String editor, int secondsLeft) {
        return lease(id, title, desk, editor, secondsLeft, 0);
    }

    private static ActiveLease lease(long id, String title, String desk, String editor, int secondsLeft, int renewals) {
        return new ActiveLease(id, title, desk, 3, editor, editor.substring(0, 1).toUpperCase() + editor.substring(1) + " Smith",
                NOW.minusMinutes(5), renewals, NOW.plusSeconds(secondsLeft), NOW, NOW.minusSeconds(10));
    }

    private List<Long> ids() {
        return table.visible().stream().map(HolderRow::id).toList();
    }

    @Test
    void mergesWhatARefreshReadInTimeLeftOrderAndKeepsUnchangedRows() {
        table.sortBy(HolderSort.TIME_LEFT, true);
        HoldersTable.Merge first = table.merge(Set.of(1L, 2L, 3L), List.of(lease(1, "Budget", "news", "ann", 300),
                lease(2, "Cup draw", "sport", "bob", 100), lease(3, "Storm", "news", "ann", 200)), 0);
        assertThat(first.rowsChanged()).isEqualTo(3);
        assertThat(ids()).containsExactly(2L, 3L, 1L);
        HolderRow storm = table.get(3);

        // 2 was renewed (now last), 1 ended; 3 was asked about again but did not change
        HoldersTable.Merge second = table.merge(Set.of(1L, 2L, 3L), List.of(lease(2, "Cup draw", "sport", "bob", 900, 1),
                lease(3, "Storm", "news", "ann", 200)), 0);

        assertThat(second.gone()).containsExactlyInAnyOrder(1L, 2L);
        assertThat(second.added()).extracting(HolderRow::id).containsExactly(2L);
        assertThat(second.rowsChanged()).as("a changed lease counts once").isEqualTo(2);
        assertThat(ids()).containsExactly(3L, 2L);
        assertThat(table.get(3)).isSameAs(storm);
        assertThat(table.get(2).renewals()).isEqualTo(1);
        assertThat(table.get(1)).isNull();

        assertThat(table.merge(Set.of(3L), List.of(lease(3, "Storm", "news", "ann", 200)), 0).changed()).isFalse();
    }

    @Test
    void byDefaultTheRowsGoByEditorThenClaimAndARenewalMovesNone() {
        table.merge(Set.of(1L, 2L, 3L, 4L), List.of(lease(1, "Budget", "news", "bob", 300), lease(2, "Cup draw", "sport", "ann", 100),
                lease(3, "Storm", "news", "ann", 200), lease(4, "Flood", "news", "ann", 50)), 0);
        assertThat(ids()).containsExactly(2L, 3L, 4L, 1L);

        // every lease renews, each to a different end: nothing moves
        table.merge(Set.of(1L, 2L, 3L, 4L), List.of(lease(1, "Budget", "news", "bob", 60, 1), lease(2, "Cup draw", "sport", "ann", 900, 1),
                lease(3, "Storm", "news", "ann", 30, 1), lease(4, "Flood", "news", "ann", 600, 1)), 0);
        assertThat(ids()).containsExactly(2L, 3L, 4L, 1L);

        // a new lease takes its holder's place; one that changes hands moves to its new holder
        table.merge(Set.of(4L, 5L), List.of(lease(4, "Flood", "news", "bob", 600), lease(5, "Derby", "sport", "ann", 10)), 0);
        assertThat(ids()).containsExactly(2L, 3L, 5L, 1L, 4L);
    }

    @Test
    void leasesLeaveWhenTheirTimeRunsOutOnTheLocalClock() {
        table.merge(Set.of(1L, 2L), List.of(lease(1, "Budget", "news", "ann", 30), lease(2, "Storm", "news", "bob", 60)), 0);

        assertThat(table.expire(Duration.ofSeconds(29).toNanos())).isEmpty();
        assertThat(table.expire(Duration.ofSeconds(30).toNanos())).containsExactly(1L);
        assertThat(ids()).containsExactly(2L);
        assertThat(table.get(1)).isNull();
        assertThat(table.expire(Duration.ofSeconds(61).toNanos())).containsExactly(2L);
        assertThat(table.emptyText()).isEqualTo("Nobody holds an article right now.");
    }

    @Test
    void searchesTitlesPeopleDeskNamesAndExactNumbersAndSaysWhyNothingShows() {
        table.merge(Set.of(1L, 2L, 3L, 40L), List.of(lease(1, "Budget vote", "news", "ann", 300),
                lease(2, "Cup draw", "sport", "bob", 100), lease(3, "Storm warning", "news", "ann", 200),
                lease(40, "Derby", "sport", "dan", 400)), 0);

        table.search("bob");
        assertThat(ids()).containsExactly(2L);
        table.search("SPORT");
        assertThat(ids()).containsExactly(2L, 40L);
        table.search("4");
        assertThat(ids()).as("numbers match exactly, not as part of another").isEmpty();
        table.search("40");
        assertThat(ids()).containsExactly(40L);
        assertThat(table.summary(1)).isEqualTo("1 of 4 active leases \u00b7 live");
        table.search("xyz");
        assertThat(table.emptyText()).isEqualTo("No lease matches \u201cxyz\u201d. 4 leases are active; clear the search to see them.");
        table.search(" ");
        assertThat(ids()).hasSize(4);
        assertThat(table.summary(4)).isEqualTo("4 active leases \u00b7 live");
    }

    @Test
    void groupsByHolderOrDeskNameAndKeepsTheChosenGroupWithItsNewCount() {
        table.merge(Set.of(1L, 2L, 3L), List.of(lease(1, "Budget", "news", "bob", 300), lease(2, "Cup draw", "sport", "ann", 100),
                lease(3, "Storm", "news", "bob", 200)), 0);

        table.groupBy(Grouping.EDITOR);
        assertThat(table.groups()).extracting(Object::toString).containsExactly("Ann Smith (1)", "Bob Smith (2)");
        assertThat(ids()).containsExactly(2L, 1L, 3L);
        table.showGroup(table.groups().get(1));
        assertThat(ids()).containsExactly(1L, 3L);

        table.merge(Set.of(4L), List.of(lease(4, "Flood", "sport", "bob", 50)), 0);
        assertThat(table.groups()).extracting(Object::toString).containsExactly("Ann Smith (1)", "Bob Smith (3)");
        assertThat(table.groupFilter().leases()).isEqualTo(3);
        assertThat(ids()).containsExactly(1L, 3L, 4L);

        table.groupBy(Grouping.DESK);
        assertThat(table.groupFilter()).as("a new grouping starts with every group").isNull();
        assertThat(table.groups()).extracting(HoldersTable.GroupSummary::label).containsExactly("News", "Sport");
        assertThat(ids()).containsExactly(1L, 3L, 2L, 4L);
    }

    @Test
    void sortsByTheChosenKeyInsideGroupsAndMergesNewRowsIntoThatOrder() {
        table.merge(Set.of(1L, 2L, 3L), List.of(lease(1, "Budget", "news", "ann", 300), lease(2, "Cup draw", "a-desk", "bob", 100),
                lease(3, "Storm", "news", "cat", 200)), 0);

        assertThat(table.sortBy(HolderSort.EDITOR, true)).as("already so: nothing to do").isFalse();
        assertThat(table.sortBy(HolderSort.ARTICLE, false)).isTrue();
        assertThat(ids()).containsExactly(3L, 2L, 1L);
        table.merge(Set.of(4L), List.of(lease(4, "Derby", "news", "dan", 999)), 0);
        assertThat(ids()).containsExactly(3L, 4L, 2L, 1L);

        table.sortBy(HolderSort.DESK, true); // by the desk's name: "News" before "Zebra", ties by claim time, then number
        assertThat(ids()).containsExactly(1L, 3L, 4L, 2L);
        table.sortBy(HolderSort.TIME_LEFT, true);
        assertThat(ids()).containsExactly(2L, 3L, 1L, 4L);
    }
}
