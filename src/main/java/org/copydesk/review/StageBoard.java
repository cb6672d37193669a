package org.copydesk.review;

import java.time.LocalDateTime;
import java.util.List;

/**
 * A desk's review chain as a supervisor watches it: per stage, what waits for a claim, what an
 * editor reviews now, and how long the oldest has waited, with the articles themselves (in the
 * order claims take them) for moving one to another stage. Read by {@link ReviewStages#board}.
 *
 * @param serverNow when it was read, by the server's clock
 */
public record StageBoard(String desk, LocalDateTime serverNow, List<Column> columns) {

    public StageBoard {
        columns = List.copyOf(columns);
    }

    /**
     * One stage.
     *
     * @param waiting            claimable now (not held by an editor or a supervisor, not embargoed)
     * @param inReview           held by an editor under a lease that has not run out
     * @param oldestWaitingSince when the longest-waiting of {@code waiting} became available; null if none waits
     * @param holding            every article in review at the stage, with the writer or in quarantine too: what must go
     *                           somewhere else if the stage is removed
     * @param cards              the stage's articles waiting or held, at most {@link ReviewStages#BOARD_CARDS} per stage
     */
    public record Column(Stage stage, int waiting, int inReview, LocalDateTime oldestWaitingSince, int holding, List<Card> cards) {

        public Column {
            cards = List.copyOf(cards);
        }
    }

    /**
     * An article at a stage.
     *
     * @param reviewer  the editor reviewing it now, or null
     * @param heldBy    the supervisor holding it back from claims, or null
     * @param since     when it became available at this stage (its wait)
     */
    public record Card(long id, String title, int priority, String stageId, String reviewer, String heldBy, LocalDateTime since,
                       int pass) {

        /** A supervisor may move it to another stage: no editor reviews it now. */
        public boolean movable() {
            return reviewer == null;
        }
    }
}
