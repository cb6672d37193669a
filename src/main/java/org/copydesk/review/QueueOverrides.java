package org.copydesk.review;

/**
 * What a supervisor does to the claim order of waiting articles, each through the database's own
 * operation, which checks the role, writes the history with the supervisor and the reason, and
 * refuses in plain words (see docs/dashboard.md, "The queue and the supervisor's overrides"):
 * move an article to the front, hold it out of every claim and release the hold, and let the
 * editor a force release or a reassignment kept it from claim it again. Giving a waiting article
 * to a named editor is {@link Supervision#reassign(long, String, String, Supervision.Give)}.
 */
public final class QueueOverrides {

    private final DatabaseOperations operations;
    private final String sessionUser;

    QueueOverrides(DatabaseOperations operations, String sessionUser) {
        this.operations = operations;
        this.sessionUser = sessionUser;
    }

    /** Null when the supervisor is the signed-in account; an administrator's tools name them. */
    private String actingFor(String supervisor) {
        return supervisor == null || supervisor.equals(sessionUser) ? null : supervisor;
    }

    /** The next claim on the article's desk takes it: the most urgent priority waiting there, ahead of the rest. */
    public void moveToFront(long articleId, String supervisor, String reason) {
        operations.fetch(Operation.MOVE_TO_FRONT, actingFor(supervisor), articleId, reason);
    }

    /** No claim takes the article until the hold is released; the reason is required. */
    public void hold(long articleId, String supervisor, String reason) {
        operations.fetch(Operation.HOLD_ARTICLE, actingFor(supervisor), articleId, reason);
    }

    /** The article is claimable again, in the place it had. */
    public void releaseHold(long articleId, String supervisor, String reason) {
        operations.fetch(Operation.RELEASE_HOLD, actingFor(supervisor), articleId, reason);
    }

    /** The editor the article was kept from may claim it again. */
    public void letEditorAgain(long articleId, String supervisor, String reason) {
        operations.fetch(Operation.LET_EDITOR_AGAIN, actingFor(supervisor), articleId, reason);
    }
}
