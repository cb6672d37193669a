package org.copydesk.review;

import java.time.LocalDateTime;
import java.sql.ResultSet;
import java.sql.Statement;
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
 * the database hands it to one caller per interval, which sweeps in the same call. Several sweeps
 * at once are harmless (a forced one, {@link #runOnce()}, beside a turn): nothing here depends on
 * who runs it, only on how often.
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
        return finish(operations.fetch(Operation.END_STUCK_SESSIONS));
    }

    /**
     * The rest of a sweep whose database half ran in the newsroom's sweep turn
     * ({@code take_sweep_turn}): reports the sessions it ended and rolls back abandoned XA
     * transactions, which only a client can do.
     */
    synchronized Outcome finishTurn(List<Record> endedRows) {
        return finish(endedRows);
    }

    private Outcome finish(List<Record> endedRows) {
        List<Ended> ended = endedRows.stream().map(r -> new Ended(r.get("account", String.class),
                r.get("connection_id", Long.class), r.get("reason", String.class), r.get("suspended_until", LocalDateTime.class)))
                .toList();
        for (Ended e : ended) {
            log.warn("Ended database session {} of {}: {}{}", e.connection(), e.account(), e.reason(),
                    e.suspendedUntil() == null ? "" : "; the account is suspended until " + e.suspendedUntil() + " UTC");
        }
        return new Outcome(ended, rollBackAbandonedXa());
    }

    @AllowedBecause("XA ids are bytes (read over JDBC, not as text) and XA ROLLBACK cannot run inside a routine;"
            + " the statement is built from hex literals and a number only, and anyone may roll back a prepared XA transaction")
    private int rollBackAbandonedXa() {
        List<Xid> listed = new ArrayList<>();
        int[] limitSeconds = {0};
        // plain JDBC: the XA ids are bytes, which a driver would decode as text (MySQL sends them as such)
        xaCalls.connection(c -> {
            try (Statement s = c.createStatement()) {
                boolean isResult = s.execute(Operation.ABANDONED_XA_TRANSACTIONS.statement());
                for (int set = 0; isResult || s.getUpdateCount() != -1; set++, isResult = s.getMoreResults()) {
                    if (!isResult) {
                        continue;
                    }
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            if (set == 0) {
                                limitSeconds[0] = rs.getInt(1);
                            } else {
                                listed.add(xidOf(rs.getLong(1), rs.getInt(2), rs.getInt(3), rs.getBytes(4)));
                            }
                        }
                    }
                }
            }
        });
        if (listed.isEmpty() || limitSeconds[0] <= 0) {
            return 0;
        }
        // since when each was listed is kept by the database, whoever swept before (the turn moves between clients)
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
                log.warn("Rolled back an XA transaction left prepared for over {} s ({})", limitSeconds[0], xid.rollback());
            } catch (DataAccessException gone) {
                log.debug("XA transaction {} ended meanwhile: {}", xid, gone.getMessage());
            }
        }
        return rolledBack;
    }

    /** {@code XA RECOVER}'s row: formatID, gtrid_length, bqual_length and data (the two parts, one after the other). */
    static Xid xidOf(long format, int gtridLength, int bqualLength, byte[] data) {
        HexFormat hex = HexFormat.of();
        return new Xid(format, hex.formatHex(data, 0, gtridLength), hex.formatHex(data, gtridLength, gtridLength + bqualLength));
    }
}
