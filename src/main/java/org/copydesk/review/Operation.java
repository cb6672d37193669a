package org.copydesk.review;

import java.util.Collections;
import java.util.Locale;

/**
 * The database's operations Copydesk calls, each named once, with its number of parameters and
 * whether it may run again after its connection was lost under it. {@link DatabaseOperations} is
 * the one way to call them; {@code OperationsCatalogTest} checks this list against the routines on
 * the server.
 *
 * <p><b>Safe to repeat</b>: a second run changes nothing more than the first. A claim or a heartbeat
 * repeated only refreshes what the editor holds; a decision is recognised by its request id; a
 * draft is overwritten with the same text; the release service's operations find nothing left to
 * do. Releasing, forcing, reassigning and extending are not: a second run would report a lease as
 * lost that the first run gave up, or add the extra time twice; nor is an import batch, whose bad
 * rows would be kept aside twice.
 */
public enum Operation {
    CLAIM_ARTICLES(5, true),
    RENEW_LEASES(2, true),
    RELEASE_ARTICLE(4, false),
    DECIDE_ARTICLE(6, true),
    /** A decision at a stage that may name an earlier stage to send back to, or ask for stages ({@code decide_article} is this). */
    DECIDE_AT_STAGE(8, true),
    MOVE_TO_STAGE(4, false),
    SET_DESK_STAGE(9, false),
    ORDER_DESK_STAGES(3, false),
    REMOVE_DESK_STAGE(4, false),
    SET_STAGE_TAKERS(4, false),
    /** A person chooses the desks and stages they take work from; the same choice again changes nothing. */
    SET_WORK_CHOICE(2, true),
    TAKE_REVISION(3, false),
    SAVE_DRAFT(4, true),
    RECORD_PRESENCE(1, true),
    RELEASE_EXPIRED_LEASES(1, true),
    TAKE_SWEEP_TURN(1, true),
    END_STUCK_SESSIONS(0, true),
    /** Lists prepared XA transactions as bytes, which {@link SessionSweep} reads over plain JDBC ({@link DatabaseOperations#read}). */
    ABANDONED_XA_TRANSACTIONS(0, true),
    NOTE_PREPARED_XA(1, true),
    FORCE_RELEASE_ARTICLE(3, false),
    REASSIGN_ARTICLE(6, false),
    EXTEND_LEASE(3, false),
    MOVE_TO_FRONT(3, false),
    /** A supervisor sets, moves or clears an article's due time, with a reason (docs/deadlines.md). */
    SET_DUE_TIME(4, false),
    /** A supervisor's forecast of a desk's deadlines at the current pace (reads only; docs/deadlines.md). */
    DEADLINE_FORECAST(2, true),
    /** How the desks did per day: decisions, the share in time, p50 and p90 from arrival (reads only; docs/deadlines.md). */
    DEADLINE_REPORT(2, true),
    HOLD_ARTICLE(3, false),
    RELEASE_HOLD(3, false),
    LET_EDITOR_AGAIN(3, false),
    SET_EDITOR_CAPACITY(2, false),
    SET_EDITOR_DESKS(2, false),
    IMPORT_ARTICLES(6, false),
    CORRECT_IMPORT_ROW(11, false),
    DISCARD_IMPORT_ROW(2, false),
    REQUEUE_ARTICLE(5, false),
    RELAY_ACQUIRE(3, false),
    RELAY_RELEASE(1, false),
    RELAY_NEXT(2, false),
    RELAY_RECORD_ATTEMPT(6, false),
    RELAY_RETRY(2, false),
    CREATE_ACCOUNT(2, false),
    CREATE_DIRECTORY_ACCOUNT(1, false),
    SET_ACCOUNT_PASSWORD(2, false),
    DROP_ACCOUNT(1, false),
    REGRANT_ACCOUNTS(0, false),
    REGRANT_ACCOUNT(1, false),
    ACCOUNTS_WITH_OTHER_RIGHTS(0, true),
    LIFT_SUSPENSION(1, false),
    CREATE_INTEGRATION_ACCOUNT(3, false),
    DROP_INTEGRATION_ACCOUNT(1, false);

    private final int parameters;
    private final boolean safeToRepeat;

    Operation(int parameters, boolean safeToRepeat) {
        this.parameters = parameters;
        this.safeToRepeat = safeToRepeat;
    }

    /** The routine's name in the database. */
    public String routine() {
        return name().toLowerCase(Locale.ROOT);
    }

    public int parameters() {
        return parameters;
    }

    public boolean safeToRepeat() {
        return safeToRepeat;
    }

    /**
     * The account operations change grants, which reload the server's routine cache mid-call: sent
     * as a server-side prepared {@code CALL} they fail on MariaDB 11.4 with "Recursive limit 0 … was
     * exceeded", so they travel as plain statements (values inlined and escaped by jOOQ).
     */
    boolean changesAccounts() {
        return switch (this) {
            case CREATE_ACCOUNT, CREATE_DIRECTORY_ACCOUNT, SET_ACCOUNT_PASSWORD, DROP_ACCOUNT, REGRANT_ACCOUNTS, REGRANT_ACCOUNT,
                    LIFT_SUSPENSION,
                    CREATE_INTEGRATION_ACCOUNT, DROP_INTEGRATION_ACCOUNT -> true;
            default -> false;
        };
    }

    /** {@code call routine(?, ?, …)}: the only SQL text Copydesk sends to change data. */
    String statement() {
        return "call " + routine() + "(" + String.join(", ", Collections.nCopies(parameters, "?")) + ")";
    }
}
