package org.copydesk.review;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.copydesk.lease.Lease;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * What the newsroom's sweep turn ({@code take_sweep_turn}) answered to one client's tick: whether
 * this call took the turn (and so swept), whether it looked at stuck sessions, the sessions it
 * ended, the leases it freed, why the turn failed (null: it did not), and, to every caller, turn or
 * not, the prepared XA transactions with {@code session_limit.xa_seconds}: only a client can roll
 * one back, so every client does once it is due, whoever takes the turns. {@code nextCallAfter}:
 * how long the database asks this caller to wait before its next call (zero: it did not say), longer
 * than the interval when many clients share the newsroom, so that they call about twenty times per
 * interval between them.
 */
record SweepTurn(boolean taken, boolean sessionsSwept, List<SessionSweep.Ended> ended, List<Lease> released, String failure,
                 int xaSeconds, List<SessionSweep.Xid> preparedXa, Duration nextCallAfter) {

    SweepTurn {
        ended = List.copyOf(ended);
        released = List.copyOf(released);
        preparedXa = List.copyOf(preparedXa);
    }

    /**
     * Reads the call's result sets, told apart by their columns (a failed stuck-session half sends
     * none); XA RECOVER's ids as bytes, the rest as records.
     */
    static final class Reader implements DatabaseOperations.ResultSetReader<SweepTurn> {

        private final DSLContext records = DSL.using(SQLDialect.DEFAULT);
        private final List<SessionSweep.Ended> ended = new ArrayList<>();
        private final List<Lease> released = new ArrayList<>();
        private final List<SessionSweep.Xid> preparedXa = new ArrayList<>();
        private Record turn;
        private String failure;

        @Override
        public void read(ResultSet results) throws SQLException {
            Set<String> columns = columnsOf(results);
            if (columns.contains("formatid")) {
                preparedXa.addAll(SessionSweep.xidsOf(results));
                return;
            }
            Result<Record> rows = records.fetch(results);
            if (columns.contains("taken")) {
                turn = rows.get(0);
            } else if (columns.contains("connection_id")) {
                ended.addAll(rows.map(SessionSweep::endedOf));
            } else if (columns.contains("token")) {
                released.addAll(rows.map(ReviewProcedures::releasedLeaseOf));
            } else if (columns.contains("sweep_failed")) {
                failure = rows.get(0).get(0, String.class);
            }
        }

        @Override
        public SweepTurn answer() {
            if (turn == null) {
                throw new IllegalStateException("take_sweep_turn answered without its first row");
            }
            boolean taken = DatabaseOperations.flag(Operation.TAKE_SWEEP_TURN, turn, "taken");
            boolean sessionsSwept = taken && DatabaseOperations.flag(Operation.TAKE_SWEEP_TURN, turn, "sessions_swept");
            Long nextCallMs = turn.get("next_call_ms", Long.class);
            return new SweepTurn(taken, sessionsSwept, ended, released, failure, turn.get("xa_seconds", Integer.class), preparedXa,
                    nextCallMs == null || nextCallMs < 0 ? Duration.ZERO : Duration.ofMillis(nextCallMs));
        }

        private static Set<String> columnsOf(ResultSet results) throws SQLException {
            ResultSetMetaData meta = results.getMetaData();
            Set<String> columns = new HashSet<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnLabel(i).toLowerCase(Locale.ROOT));
            }
            return columns;
        }
    }
}
