package org.copydesk.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * The baseline: the bare SQL under a claim, on {@code bare_article}, a copy of the
 * article table with the same columns and indexes but no triggers, no history and no checks of who
 * calls. Per owner: one transaction of {@code SELECT … LIMIT 5 FOR UPDATE SKIP LOCKED} and one
 * {@code UPDATE … WHERE id IN (…)}, then one committed token-checked completion per row. Plain JDBC
 * on a connection the owner keeps for the whole cell, autocommit off, READ COMMITTED (the pool's
 * level), prepared statements: what a hand-written client would do. The statements are the
 * documented plain-SQL templates of this class (jOOQ has no handle for the copies).
 *
 * <p>{@linkplain #recordingOwner With records}, the same client also keeps the records Copydesk
 * keeps, in the same transactions and in copies of Copydesk's own tables (same indexes, no
 * triggers): a history row per claimed article with the claim; with each completion two history
 * rows (the lease ends, the verdict), the decision and the outcome event for the newsroom, in the
 * feed's order (the {@code outcome_order} row first). The first baseline keeps no event log;
 * this second baseline shows what the records alone cost, written by hand.
 */
final class BareClaims {

    static final String TABLE = "bare_article";
    /** The copies a client keeping Copydesk's records writes to: copy name, original. */
    private static final List<String[]> RECORD_TABLES = List.of(new String[] {"bare_lease_event", "lease_event"},
            new String[] {"bare_decision", "decision"}, new String[] {"bare_outcome_event", "outcome_event"},
            new String[] {"bare_outcome_order", "outcome_order"});

    private static final String CANDIDATES = "select id, lease_token, external_id from " + TABLE
            + " where status = 'queued' and available_at <= now(6) and (locked_by is null or expires_at <= now(6))"
            + " order by status, priority, due_order, queue_lane, available_at, id limit " + ClaimBenchmark.BATCH
            + " for update skip locked";
    private static final String COMPLETE = "update " + TABLE + " set status = 'approved', locked_by = null, expires_at = null"
            + " where id = ? and locked_by = ? and lease_token = ?";
    private static final String EVENT_COLUMNS = " (occurred_at, resource, row_key, action, actor, old_owner, new_owner,"
            + " old_token, lease_token, expires_at, detail) values ";
    /** A completion's history: the lease ends, then the verdict (as decide_article writes them). */
    private static final String COMPLETE_EVENTS = "insert into bare_lease_event" + EVENT_COLUMNS
            + "(now(6), 'article', ?, 'complete', ?, ?, null, ?, null, null, 'approve'),"
            + " (now(6), 'article', ?, 'approve', ?, null, null, null, null, null, '')";
    private static final String DECISION = "insert into bare_decision (request_id, article_id, editor_id, verdict, notes,"
            + " lease_token, decided_at, revision) values (?, ?, ?, 'approve', '', ?, now(6), 1)";
    private static final String FEED_ORDER = "update bare_outcome_order set last_event = now(6) where id = 1";
    private static final String OUTCOME = "insert into bare_outcome_event (idempotency_key, outcome, article_id, external_id,"
            + " desk_id, editor_id, verdict, notes, article_status, send_backs, returns_at, lease_token, decided_at,"
            + " next_attempt_at) values (?, 'approved', ?, ?, 'news', ?, 'approve', '', 'approved', 0, null, ?, now(6), now(6))";

    private BareClaims() {
    }

    /** The copy, built once after the dataset: same definition (indexes included), no triggers. */
    static void create(DSLContext admin) {
        admin.execute("drop table if exists " + TABLE);
        admin.execute("create table " + TABLE + " like article");
        admin.execute("insert into " + TABLE + " select * from article");
        admin.execute("analyze table " + TABLE);
        for (String[] copy : RECORD_TABLES) {
            admin.execute("drop table if exists " + copy[0]);
            admin.execute("create table " + copy[0] + " like " + copy[1]);
        }
        admin.execute("insert into bare_outcome_order (id) values (1)");
    }

    /** Puts back every row an earlier cell touched. */
    static void reset(DSLContext admin) {
        admin.execute("update " + TABLE + " set status = 'queued', locked_by = null, expires_at = null, lease_token = 0"
                + " where status <> 'queued' or locked_by is not null");
        for (String[] copy : RECORD_TABLES) {
            if (!copy[0].equals("bare_outcome_order")) { // its one row stays: the feed's order lock
                admin.execute("truncate table " + copy[0]);
            }
        }
    }

    /**
     * Opens the pool's connections before the load starts: each bare owner keeps one for the whole
     * cell, and the last of 64 owners, asking while 63 others already hammered the server, once
     * waited past the pool's 5 s for its connection to be made.
     */
    static void openAll(DataSource pool, int connections) {
        List<Connection> opened = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                opened.add(pool.getConnection());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("opening the bare owners' connections", e);
        } finally {
            for (Connection c : opened) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // back to the pool or gone; the owner's own request will tell
                }
            }
        }
    }

    /** One owner: a connection of its own, held for the whole cell. */
    static OwnerLoop<long[]> owner(DataSource pool, String name) {
        return new Owner(pool, name, false);
    }

    /** One owner that also keeps Copydesk's records (see the class comment). */
    static OwnerLoop<long[]> recordingOwner(DataSource pool, String name) {
        return new Owner(pool, name, true);
    }

    /**
     * One owner's loop. A claimed row is {@code [id, lease token]}; with records, its external id
     * waits in {@code externalIds} for the outcome event.
     */
    private static final class Owner implements OwnerLoop<long[]> {
        private final DataSource pool;
        private final String name;
        private final boolean records;
        private final Map<Long, String> externalIds = new HashMap<>();
        private Connection c;
        private PreparedStatement candidates;
        private PreparedStatement complete;
        private PreparedStatement completeEvents;
        private PreparedStatement decision;
        private PreparedStatement feedOrder;
        private PreparedStatement outcome;
        private final PreparedStatement[] take = new PreparedStatement[ClaimBenchmark.BATCH + 1];
        private final PreparedStatement[] claimEvents = new PreparedStatement[ClaimBenchmark.BATCH + 1];

        Owner(DataSource pool, String name, boolean records) {
            this.pool = pool;
            this.name = name;
            this.records = records;
        }

        @Override
        public List<long[]> claim() {
            try {
                open();
                List<long[]> rows = new ArrayList<>(ClaimBenchmark.BATCH);
                try (ResultSet rs = candidates.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new long[] {rs.getLong(1), rs.getLong(2) + 1});
                        if (records) {
                            externalIds.put(rs.getLong(1), rs.getString(3));
                        }
                    }
                }
                if (rows.isEmpty()) {
                    c.commit();
                    return List.of();
                }
                PreparedStatement update = take(rows.size());
                update.setString(1, name);
                for (int i = 0; i < rows.size(); i++) {
                    update.setLong(2 + i, rows.get(i)[0]);
                }
                update.executeUpdate();
                if (records) {
                    writeClaimEvents(rows);
                }
                c.commit();
                return rows;
            } catch (SQLException e) {
                rollbackQuietly();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public boolean complete(long[] row) {
            try {
                complete.setLong(1, row[0]);
                complete.setString(2, name);
                complete.setLong(3, row[1]);
                int changed = complete.executeUpdate();
                String externalId = externalIds.remove(row[0]);
                if (records && changed == 1) {
                    writeCompletionRecords(row, externalId);
                }
                c.commit();
                return changed == 1;
            } catch (SQLException e) {
                rollbackQuietly();
                throw new IllegalStateException(e);
            }
        }

        private void open() throws SQLException {
            if (c == null) {
                c = pool.getConnection();
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                candidates = c.prepareStatement(CANDIDATES);
                complete = c.prepareStatement(COMPLETE);
                if (records) {
                    completeEvents = c.prepareStatement(COMPLETE_EVENTS);
                    decision = c.prepareStatement(DECISION);
                    feedOrder = c.prepareStatement(FEED_ORDER);
                    outcome = c.prepareStatement(OUTCOME);
                }
            }
        }

        /** One history row per claimed article, in one multi-row insert. */
        private void writeClaimEvents(List<long[]> rows) throws SQLException {
            int n = rows.size();
            if (claimEvents[n] == null) {
                claimEvents[n] = c.prepareStatement("insert into bare_lease_event" + EVENT_COLUMNS + String.join(", ",
                        Collections.nCopies(n, "(now(6), 'article', ?, 'claim', ?, null, ?, ?, ?, now(6) + interval "
                                + ClaimBenchmark.TTL.toSeconds() + " second, null)")));
            }
            PreparedStatement insert = claimEvents[n];
            int p = 1;
            for (long[] row : rows) {
                insert.setString(p++, Long.toString(row[0]));
                insert.setString(p++, name);
                insert.setString(p++, name);
                insert.setLong(p++, row[1] - 1);
                insert.setLong(p++, row[1]);
            }
            insert.executeUpdate();
        }

        /** The history of the lease's end and the verdict, the decision, and the outcome event last. */
        private void writeCompletionRecords(long[] row, String externalId) throws SQLException {
            String key = Long.toString(row[0]);
            completeEvents.setString(1, key);
            completeEvents.setString(2, name);
            completeEvents.setString(3, name);
            completeEvents.setLong(4, row[1]);
            completeEvents.setString(5, key);
            completeEvents.setString(6, name);
            completeEvents.executeUpdate();
            String request = UUID.randomUUID().toString();
            decision.setString(1, request);
            decision.setLong(2, row[0]);
            decision.setString(3, name);
            decision.setLong(4, row[1]);
            decision.executeUpdate();
            feedOrder.executeUpdate();
            outcome.setString(1, request);
            outcome.setLong(2, row[0]);
            outcome.setString(3, externalId);
            outcome.setString(4, name);
            outcome.setLong(5, row[1]);
            outcome.executeUpdate();
        }

        private PreparedStatement take(int n) throws SQLException {
            if (take[n] == null) {
                take[n] = c.prepareStatement("update " + TABLE + " set locked_by = ?,"
                        + " expires_at = now(6) + interval " + ClaimBenchmark.TTL.toSeconds() + " second,"
                        + " lease_token = lease_token + 1 where id in (" + String.join(", ", Collections.nCopies(n, "?")) + ")");
            }
            return take[n];
        }

        private void rollbackQuietly() {
            try {
                if (c != null) {
                    c.rollback();
                }
            } catch (SQLException ignored) {
                // the connection is gone; the next claim fails again and is counted
            }
        }

        @Override
        public void close() {
            if (c != null) {
                try {
                    c.rollback();
                    c.setAutoCommit(true);
                    c.close();
                } catch (SQLException e) {
                    ClaimBenchmark.say("closing a bare owner: %s", e);
                }
            }
        }
    }
}
