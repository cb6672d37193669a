package org.copydesk.ui.editor;

/**
 * How wide the three panes of the editor's window are, given the room there is: the reader is what
 * the editor looks at all day, so when the window shrinks the side panes give way first, down to
 * their minimum widths, then the article list folds away, then the review panel. The reader never
 * gets less than {@link #READER_MIN} while a side pane is open. Plain arithmetic, tested directly.
 *
 * @param list   the article list's width; 0 when folded away
 * @param review the review panel's width; 0 when folded away
 */
record PaneWidths(double list, double reader, double review) {

    static final double LIST_MIN = 220;
    static final double REVIEW_MIN = 250;
    static final double READER_MIN = 480;

    /**
     * @param total      the width there is
     * @param listWanted the list's width the editor chose (or the default)
     * @param reviewWanted the review panel's width the editor chose (or the default)
     * @param listOpen   false when the editor folded the list away
     * @param reviewOpen false when the editor folded the review panel away
     */
    static PaneWidths fit(double total, double listWanted, double reviewWanted, boolean listOpen, boolean reviewOpen) {
        double list = listOpen ? Math.max(LIST_MIN, listWanted) : 0;
        double review = reviewOpen ? Math.max(REVIEW_MIN, reviewWanted) : 0;
        double over = list + review + READER_MIN - total;
        if (over > 0) { // the side panes give way, each down to its minimum, in proportion to what they can give
            double listSlack = list == 0 ? 0 : list - LIST_MIN;
            double reviewSlack = review == 0 ? 0 : review - REVIEW_MIN;
            double slack = listSlack + reviewSlack;
            if (slack > 0) {
                double take = Math.min(over, slack);
                list -= take * listSlack / slack;
                review -= take * reviewSlack / slack;
            }
        }
        if (list > 0 && list + review + READER_MIN > total) {
            list = 0; // then the list folds away (Alt+Down/Up still move through it)
        }
        if (review > 0 && review + READER_MIN > total) {
            review = 0; // and last the review panel (its shortcuts still work)
        }
        return new PaneWidths(list, Math.max(0, total - list - review), review);
    }

    boolean listFolded() {
        return list == 0;
    }

    boolean reviewFolded() {
        return review == 0;
    }
}
