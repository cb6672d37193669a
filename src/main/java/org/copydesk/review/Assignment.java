package org.copydesk.review;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

/**
 * What an editor holds after "Get articles": the articles held before (refreshed) first.
 *
 * @param nextAvailableAt when the next article on the editor's desks becomes available, if the
 *                        editor has room and nothing is available now
 */
public record Assignment(List<HeldArticle> articles, int refreshed, int claimed, int capacity,
                         LocalDateTime serverTime, Optional<LocalDateTime> nextAvailableAt) {

    public Assignment {
        articles = List.copyOf(articles);
    }
}
