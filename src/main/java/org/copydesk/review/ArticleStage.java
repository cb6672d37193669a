package org.copydesk.review;

import java.time.LocalDateTime;
import java.util.List;

/**
 * Where an article is in its desk's chain, for the card and the reader ("Legal · 2 of 3"), with
 * the decisions made at stages so far, oldest first ("Copy edit: Ann approved at 14:02 — tightened
 * the intro").
 *
 * @param pass    1, plus one each time the article re-entered the chain (a send-back, a requeue)
 * @param asked   stages entered only when asked that were asked for
 */
public record ArticleStage(long articleId, String desk, String stageId, String stageName, int position, int stageCount, int pass,
                           List<String> asked, List<StageNote> earlier) {

    public ArticleStage {
        asked = List.copyOf(asked);
        earlier = List.copyOf(earlier);
    }

    /** A decision made at a stage of the article's chain. */
    public record StageNote(String stageId, String stageName, int pass, String editorId, String editorName, Verdict verdict,
                            LocalDateTime decidedAt, String notes) {
    }
}
