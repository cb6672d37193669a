package org.copydesk.review;

import java.time.LocalDateTime;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.copydesk.AllowedBecause;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.conf.StatementType;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends what a raw session can leave behind to block others, with the rights of the account that
 * owns the schema (the database decides what to end, see {@code end_stuck_sessions}):
 * <ul>
 *   <li>a person's session that holds row locks outside an operation for longer than the limit
 *   (Copydesk's own work never does) is ended, and the account is suspended for a while;</li>
 *   <li>a transaction left open and idle, which holds metadata locks a schema change waits for, is
 *   ended;</li>
 *   <li>a statement that runs longer than the limit is stopped;</li>
 *   <li>an XA transaction left prepared by a session that went away (it outlives its connection, and
 *   on MySQL keeps its metadata locks) is rolled back once the sweeps, whoever ran them, have listed
 *   it for longer than the limit ({@code note_prepared_xa} keeps since when). XA statements cannot
 *   run inside a routine, so this part runs here: the database lists the prepared transactions
 *   ({@code abandoned_xa_transactions}, with the owner's right to see everyone's), and this
 *   session rolls each back by its id, which needs no right at all.</li>
 * </ul>
 * The limits are the row of {@code session_limit}, set by the owner. Every client's release service
 * asks for the newsroom's sweep turn every interval, and so does {@code copydesk release-daemon};
 * the database hands it to one caller per interval, which sweeps in the same call, and lists the
 * prepared XA transactions to every caller, turn or not, so every client does the XA half
 * ({@link #afterTurn}) whoever takes the turns. Several sweeps at once are harmless (a forced one,
 * {@link #runOnce()}, beside a turn): nothing here depends on who runs it, only on how often.
 */
public final class SessionSweep {

    private static final Logger log = LoggerFactory.getLogger(SessionSweep.class);

    /** A session the sweep ended, why, and until when its account is suspended (null: not suspended). */
    public record Ended(String account, long connection, String reason, LocalDateTime suspendedUntil) {
    }

    /** An XA transaction id as the server lists it: format, and the bytes of its two parts. */
    record Xid(long format, String gtridHex, String bqualHex) {

        /** How {@code note_prepared_xa} knows it: format:gtrid:bqual, the parts as hex. */
        String key() {
            return format + ":" + gtridHex + ":" + bqualHex;
        }

        /** The XA statement that rolls it back: hex literals and a number, nothing taken as text. */
        String rollback() {
            return "XA ROLLBACK X'" + gtridHex + "',X'" + bqualHex + "'," + format;
        }
    }

    /** At most this many XA ids are noted in one call (note_prepared_xa's limit); the rest wait for the next sweep. */
    static final int XA_PER_SWEEP = 100;

    private final DatabaseOperations operations;
    private final DSLContext xaCalls;

    /** A sweep over {@code dsl} with Copydesk's default retry policy (tools and tests). */
    public SessionSweep(DSLContext dsl) {
        this(DatabaseOperations.withDefaultRetries(dsl), dsl);
    }

    SessionSweep(DatabaseOperations operations, DSLContext dsl) {
        this.operations = operations;
        // XA statements are not allowed through the server's prepared-statement protocol
        this.xaCalls = DSL.using(dsl.configuration().derive(dsl.settings().withStatementType(StatementType.STATIC_STATEMENT)));
    }

    /** One sweep: the sessions it ended, and how many abandoned XA transactions it rolled back. */
    public record Outcome(List<Ended> ended, int xaRolledBack) {
    }

    /** A whole sweep, whoever else swept lately (copydesk release-daemon --once, tests). */
    public synchronized Outcome runOnce() {
        List<Ended> ended = operations.fetch(Operation.END_STUCK_SESSIONS).map(SessionSweep::endedOf);
        report(ended);
        PreparedXa prepared = operations.read(Operation.ABANDONED_XA_TRANSACTIONS, PreparedXa.Reader::new);
        return new Outcome(ended, rollBackDue(prepared.xaSeconds(), prepared.listed()));
    }

    /**
     * The client's half of a sweep turn ({@code take_sweep_turn}), turn or not: reports the sessions
     * the turn ended, if it was this client's, and rolls back the prepared XA transactions the call
     * listed once they are due, which only a client can do. Every client does this every tick, so
     * an account that takes every turn cannot keep them from it.
     */
    synchronized Outcome afterTurn(SweepTurn turn) {
        report(turn.ended());
        return new Outcome(turn.ended(), rollBackDue(turn.xaSeconds(), turn.preparedXa()));
    }

    private static void report(List<Ended> ended) {
        for (Ended e : ended) {
            log.warn("Ended database session {} of {}: {}{}", e.connection(), e.account(), e.reason(),
                    e.suspendedUntil() == null ? "" : "; the account is suspended until " + e.suspendedUntil() + " UTC");
        }
    }

    /**
     * Notes the listed prepared XA transactions ({@code note_prepared_xa}, which keeps since when
     * any client listed each, on the server's clock) and rolls back those listed for longer than
     * {@code limitSeconds} (0: none).
     */
    @AllowedBecause("XA ROLLBACK cannot run inside a routine; the statement is built from hex literals and a number only,"
            + " and anyone may roll back a prepared XA transaction")
    private int rollBackDue(int limitSeconds, List<Xid> listed) {
        if (listed.isEmpty() || limitSeconds <= 0) {
            return 0;
        }
        List<Xid> noted = listed.subList(0, Math.min(listed.size(), XA_PER_SWEEP));
        String ids = noted.stream().map(x -> "\"" + x.key() + "\"").collect(Collectors.joining(",", "[", "]"));
        Set<String> due = new HashSet<>(operations.fetch(Operation.NOTE_PREPARED_XA, ids).getValues("xid", String.class));
        int rolledBack = 0;
        for (Xid xid : noted) {
            if (!due.contains(xid.key())) {
                continue;
            }
            try {
                xaCalls.execute(xid.rollback());
                rolledBack++;
                log.warn("Rolled back an XA transaction left prepared for over {} s ({})", limitSeconds, xid.rollback());
            } catch (DataAccessException gone) {
                log.debug("XA transaction {} ended meanwhile: {}", xid, gone.getMessage());
            }
        }
        return rolledBack;
    }

    /** A row of {@code end_stuck_sessions}'s answer. */
    static Ended endedOf(Record r) {
        return new Ended(r.get("account", String.class), r.get("connection_id", Long.class), r.get("reason", String.class),
                r.get("suspended_until", LocalDateTime.class));
    }

    /** {@code XA RECOVER}'s rows, read as bytes (a driver would decode the ids as text: MySQL sends them as such). */
    static List<Xid> xidsOf(ResultSet rows) throws SQLException {
        List<Xid> xids = new ArrayList<>();
        while (rows.next()) {
            xids.add(xidOf(rows.getLong(1), rows.getInt(2), rows.getInt(3), rows.getBytes(4)));
        }
        return xids;
    }

    /** {@code XA RECOVER}'s row: formatID, gtrid_length, bqual_length and data (the two parts, one after the other). */
    static Xid xidOf(long format, int gtridLength, int bqualLength, byte[] data) {
        HexFormat hex = HexFormat.of();
        return new Xid(format, hex.formatHex(data, 0, gtridLength), hex.formatHex(data, gtridLength, gtridLength + bqualLength));
    }

    /** What {@code abandoned_xa_transactions} answers: session_limit's xa_seconds and the prepared XA transactions. */
    private record PreparedXa(int xaSeconds, List<Xid> listed) {

        private static final class Reader implements DatabaseOperations.ResultSetReader<PreparedXa> {
            private int set;
            private int xaSeconds;
            private final List<Xid> listed = new ArrayList<>();

            @Override
            public void read(ResultSet rows) throws SQLException {
                if (set++ == 0) {
                    xaSeconds = rows.next() ? rows.getInt(1) : 0;
                } else {
                    listed.addAll(xidsOf(rows));
                }
            }

            @Override
            public PreparedXa answer() {
                return new PreparedXa(xaSeconds, listed);
            }
        }
    }
}
