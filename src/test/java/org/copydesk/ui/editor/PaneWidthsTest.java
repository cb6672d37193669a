package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The reader's room comes first: the side panes shrink, then fold, never the reader below its minimum. */
class PaneWidthsTest {

    @Test
    void withRoomEachPaneGetsWhatItWants() {
        PaneWidths w = PaneWidths.fit(1400, 300, 320, true, true);
        assertThat(w.list()).isEqualTo(300);
        assertThat(w.review()).isEqualTo(320);
        assertThat(w.reader()).isEqualTo(780);
    }

    @Test
    void theSidePanesGiveWayFirstDownToTheirMinimums() {
        PaneWidths w = PaneWidths.fit(1024, 300, 320, true, true);
        assertThat(w.reader()).isCloseTo(PaneWidths.READER_MIN, Offset.offset(0.001));
        assertThat(w.list()).isBetween(PaneWidths.LIST_MIN, 300.0);
        assertThat(w.review()).isBetween(PaneWidths.REVIEW_MIN, 320.0);
        assertThat(w.list() + w.reader() + w.review()).isCloseTo(1024, Offset.offset(0.001));
    }

    @Test
    void thenTheListFoldsThenTheReviewPanel() {
        PaneWidths narrow = PaneWidths.fit(900, 300, 320, true, true);
        assertThat(narrow.listFolded()).isTrue();
        assertThat(narrow.reviewFolded()).isFalse();
        assertThat(narrow.reader()).isGreaterThanOrEqualTo(PaneWidths.READER_MIN);

        PaneWidths tiny = PaneWidths.fit(600, 300, 320, true, true);
        assertThat(tiny.listFolded()).isTrue();
        assertThat(tiny.reviewFolded()).isTrue();
        assertThat(tiny.reader()).isEqualTo(600);
    }

    @Test
    void aFoldedPaneStaysFoldedAndGivesItsRoomToTheReader() {
        PaneWidths w = PaneWidths.fit(1280, 300, 320, false, true);
        assertThat(w.listFolded()).isTrue();
        assertThat(w.reader()).isEqualTo(960);
    }
}
