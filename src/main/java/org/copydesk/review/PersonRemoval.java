package org.copydesk.review;

import java.util.List;

/**
 * Someone leaves the newsroom (or a demo person goes): they can no longer sign in or take work,
 * and what they held goes back to the queue now; their row stays, so the history, decisions and
 * notes they wrote keep their name. An admin's task.
 *
 * <p>In this order: no desks and no capacity first (the database's claim refuses them from then on,
 * even in a session still open), then the account goes, then their leases are ended with a reason
 * the history shows.
 */
public final class PersonRemoval {

    /** What removing one person did. */
    public record Removal(Editor person, int articlesReturned) {
    }

    private final Newsroom newsroom;
    private final Supervision supervision;
    private final AccountAdministration accounts;
    private final String sessionUser;

    public PersonRemoval(ReviewSession session) {
        this.newsroom = session.newsroom();
        this.supervision = session.supervision();
        this.accounts = session.accounts();
        this.sessionUser = session.sessionUser();
    }

    public Removal remove(String id) {
        Editor person = newsroom.requireEditor(id);
        if (id.equals(sessionUser)) {
            throw new IllegalArgumentException(Phrase.of("review.remove.notYourself").text());
        }
        newsroom.setDesks(id, List.of());
        newsroom.setCapacity(id, 0);
        accounts.dropAccount(id);
        int returned = 0;
        for (Supervision.ActiveLease lease : supervision.activeLeases()) {
            if (lease.editorId().equals(id)
                    && supervision.forceRelease(lease.articleId(), null, person.displayName() + " has left the newsroom").isPresent()) {
                returned++;
            }
        }
        return new Removal(person, returned);
    }
}
