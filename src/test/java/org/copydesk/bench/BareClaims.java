package org.copydesk.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/**
 * The baseline of issue 14: the bare SQL under a claim, on {@code bare_article}, a copy of the
 * article table with the same columns and indexes but no triggers, no history and no checks of who
 * calls. Per owner: one transaction of {@code SELECT … LIMIT 5 FOR UPDATE SKIP LOCKED} and one
 * {@code UPDATE … WHERE id IN (…)}, then one committed token-checked completion per row. Plain JDBC
 * on a connection the owner keeps for the whole cell, autocommit off, READ COMMITTED (the pool's
 * level), prepared statements: what a hand-written client would do. The statements are the
 * documented plain-SQL templates of this class (jOOQ has no handle for the copy).
 */
final class BareClaims {

    static final String TABLE = "bare_article";

    private static final String CANDIDATES = "select id, lease_token from " + TABLE
            + " where status = 'queued' and available_at <= now(6) and (locked_by is null or expires_at <= now(6))"
            + " order by status, priority, queue_lane, available_at, id limit " + ClaimBenchmark.BATCH
            + " for update skip locked";
    private static final String COMPLETE = "update " + TABLE + " set status = 'approved', locked_by = null, expires_at = null"
            + " where id = ? and locked_by = ? and lease_token = ?";

    private BareClaims() {
    }

    /** The copy, built once after the dataset: same definition (indexes included), no triggers. */
    static void create(DSLContext admin) {
        admin.execute("drop table if exists " + TABLE);
        admin.execute("create table " + TABLE + " like article");
        admin.execute("insert into " + TABLE + " select * from article");
        admin.execute("analyze table " + TABLE);
    }

    /** Puts back every row an earlier cell touched. */
    static void reset(DSLContext admin) {
        admin.execute("update " + TABLE + " set status = 'queued', locked_by = null, expires_at = null, lease_token = 0"
                + " where status <> 'queued' or locked_by is not null");
    }

    /** One owner: a connection of its own, held for the whole cell. */
    static OwnerLoop<long[]> owner(DataSource pool, String name) {
        return new Owner(pool, name);
    }

    private static final class Owner implements OwnerLoop<long[]> {
        private final DataSource pool;
        private final String name;
        private Connection c;
        private PreparedStatement candidates;
        private PreparedStatement complete;
        private final PreparedStatement[] take = new PreparedStatement[ClaimBenchmark.BATCH + 1];

        Owner(DataSource pool, String name) {
            this.pool = pool;
            this.name = name;
        }

        @Override
        public List<long[]> claim() {
            try {
                open();
                List<long[]> rows = new ArrayList<>(ClaimBenchmark.BATCH);
                try (ResultSet rs = candidates.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new long[] {rs.getLong(1), rs.getLong(2) + 1});
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
            }
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
