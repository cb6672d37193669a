package org.copydesk.review;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.function.Supplier;
import org.copydesk.lease.RetryMetrics;
import org.copydesk.lease.RetryPolicy;
import org.copydesk.lease.TransientErrors;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Results;
import org.jooq.conf.StatementType;
import org.jooq.impl.DSL;

/**
 * The one way Copydesk calls an operation of the database ({@link Operation}): the statement is
 * always {@code call routine(?, …)} with bound values, and nothing else reaches the server through
 * here (a wall in {@code ArchitectureTest} keeps plain SQL and table writes out of every other class).
 *
 * <ul>
 *   <li>Retries: each operation is a transaction of its own; a deadlock or lock wait timeout rolls
 *       it back and it is called again, bounded, by the session's {@link RetryPolicy}; an operation
 *       {@linkplain Operation#safeToRepeat() safe to repeat} is also called again on a fresh
 *       connection when its connection was lost. What still fails reaches the caller as
 *       {@link org.copydesk.lease.DatabaseBusyException} or as the lost connection.</li>
 *   <li>Refusals: an operation that refuses by its rules (SQLSTATE 45000) comes back as an
 *       {@link OperationRefusedException} with the database's words.</li>
 *   <li>Outcomes: an operation that answers with a code is read into an enum with
 *       {@link #outcome}; a code this version does not know is a bug and throws, never a guess.</li>
 * </ul>
 */
public final class DatabaseOperations {

    /**
     * An answer an operation gives as a code in its result ({@code outcome}, {@code delivery}, …): an
     * enum whose constants are the codes in upper case.
     */
    public interface Outcome {
        String name();

        default String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final DSLContext dsl;
    private final DSLContext plainStatements;
    private final TransientErrors retries;

    public DatabaseOperations(DSLContext dsl, RetryPolicy policy) {
        this(dsl, new TransientErrors(policy, new RetryMetrics()));
    }

    private DatabaseOperations(DSLContext dsl, TransientErrors retries) {
        this.dsl = dsl;
        this.plainStatements = DSL.using(dsl.configuration().derive(dsl.settings().withStatementType(StatementType.STATIC_STATEMENT)));
        this.retries = retries;
    }

    /** Calls over {@code dsl} with Copydesk's default retry policy (for tools and tests that open a database themselves). */
    public static DatabaseOperations withDefaultRetries(DSLContext dsl) {
        return new DatabaseOperations(dsl, RetryPolicy.defaults());
    }

    /** The first result set the operation answers with. */
    public Result<Record> fetch(Operation operation, Object... values) {
        return send(operation, values, (sql, bound) -> context(operation).fetch(sql, bound));
    }

    /** Every result set the operation answers with. */
    public Results fetchMany(Operation operation, Object... values) {
        return send(operation, values, (sql, bound) -> context(operation).fetchMany(sql, bound));
    }

    /** Reads an operation's result sets over plain JDBC, one after the other, into one answer. */
    public interface ResultSetReader<T> {
        /** Reads one result set (closed afterwards). */
        void read(ResultSet results) throws SQLException;

        /** The answer, once every result set was read. */
        T answer();
    }

    /**
     * Every result set the operation answers with, handed to a fresh {@code reader} (one per try)
     * over plain JDBC: for answers that jOOQ records would get wrong, such as XA ids, which are
     * bytes that MySQL sends as text. Called, retried and refused as the others.
     */
    public <T> T read(Operation operation, Supplier<? extends ResultSetReader<T>> reader, Object... values) {
        return send(operation, values, (sql, bound) -> context(operation).connectionResult(c -> {
            ResultSetReader<T> answer = reader.get();
            try (PreparedStatement s = c.prepareStatement(sql)) {
                for (int i = 0; i < bound.length; i++) {
                    s.setObject(i + 1, bound[i]);
                }
                for (boolean isResult = s.execute(); isResult || s.getUpdateCount() != -1; isResult = s.getMoreResults()) {
                    if (isResult) {
                        try (ResultSet results = s.getResultSet()) {
                            answer.read(results);
                        }
                    }
                }
            }
            return answer.answer();
        }));
    }

    /** Calls an operation that answers with nothing to read. */
    public void execute(Operation operation, Object... values) {
        send(operation, values, (sql, bound) -> context(operation).execute(sql, bound));
    }

    /** The counts of this session's retries. */
    public RetryMetrics metrics() {
        return retries.metrics();
    }

    /**
     * Reads an operation's answer {@code code} strictly: one of {@code type}'s codes, or an
     * {@link IllegalStateException} (a newer database than this version, or a bug), never a guess.
     */
    public static <E extends Enum<E> & Outcome> E outcome(Operation operation, Class<E> type, String code) {
        for (E e : type.getEnumConstants()) {
            if (e.code().equals(code)) {
                return e;
            }
        }
        throw new IllegalStateException(operation.routine() + " answered '" + code + "', which this version does not know");
    }

    /** Reads a yes/no column (0 or 1) strictly. */
    public static boolean flag(Operation operation, Record row, String column) {
        Integer value = row.get(column, Integer.class);
        if (value == null || (value != 0 && value != 1)) {
            throw new IllegalStateException(operation.routine() + " answered " + column + " = " + value + ", not 0 or 1");
        }
        return value == 1;
    }

    private DSLContext context(Operation operation) {
        return operation.changesAccounts() ? plainStatements : dsl;
    }

    private interface Statement<T> {
        T send(String sql, Object[] values);
    }

    private <T> T send(Operation operation, Object[] values, Statement<T> statement) {
        if (values.length != operation.parameters()) {
            throw new IllegalStateException(operation.routine() + " takes " + operation.parameters() + " values, not "
                    + values.length);
        }
        Supplier<T> call = () -> statement.send(operation.statement(), values);
        try {
            return retries.retrying(operation.routine(), operation.safeToRepeat(), call);
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }
}
