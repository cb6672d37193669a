package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.copydesk.review.Editor;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.Fixtures;
import org.jooq.DSLContext;

/**
 * The newsroom the supervisor view-model tests work in, built the same way each time: an empty
 * newsroom, 30-minute desks named after their ids ({@code news} is "News"), and the same people
 * with the same capacities (Ann Kowalski 3, Bob Okafor 2, Dan Ito 1; Sue Lindqvist the supervisor,
 * 5). Each test says only which desks exist and who works on which:
 * {@code Editor sue = NewsroomCast.on(services, dsl).desks("news").ann("news").dan("news").sue("news");}
 */
final class NewsroomCast {

    private final Newsroom newsroom;

    private NewsroomCast(Newsroom newsroom) {
        this.newsroom = newsroom;
    }

    /** Empties the newsroom (articles, history, people, desks) and starts a cast in it. */
    static NewsroomCast on(ReviewSession services, DSLContext dsl) {
        Fixtures.emptyNewsroom(dsl);
        return new NewsroomCast(services.newsroom());
    }

    NewsroomCast desks(String... ids) {
        for (String id : ids) {
            newsroom.addDesk(id, id.substring(0, 1).toUpperCase(Locale.ROOT) + id.substring(1), Duration.ofMinutes(30));
        }
        return this;
    }

    NewsroomCast ann(String... desks) {
        newsroom.addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of(desks));
        return this;
    }

    NewsroomCast bob(String... desks) {
        newsroom.addEditor("bob", "Bob Okafor", Role.EDITOR, 2, List.of(desks));
        return this;
    }

    NewsroomCast dan(String... desks) {
        newsroom.addEditor("dan", "Dan Ito", Role.EDITOR, 1, List.of(desks));
        return this;
    }

    /** The supervisor, last: the one the dashboard is opened for. */
    Editor sue(String... desks) {
        return newsroom.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of(desks));
    }
}
