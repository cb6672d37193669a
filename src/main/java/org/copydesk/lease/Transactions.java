package org.copydesk.lease;

import java.sql.Connection;
import java.util.function.Function;
import org.jooq.DSLContext;

/** Runs engine work in a transaction at the engine's isolation level, retried on deadlock and lock wait timeout. */
final class Transactions {

    private final DSLContext dsl;
    private final int isolation;
    private final TransientErrors retries;

    Transactions(DSLContext dsl, int isolation, TransientErrors retries) {
        this.dsl = dsl;
        this.isolation = isolation;
        this.retries = retries;
    }

    <T> T retrying(String operation, java.util.function.Supplier<T> work) {
        return retries.retrying(operation, work);
    }

    <T> T retrying(String operation, boolean safeToRepeat, java.util.function.Supplier<T> work) {
        return retries.retrying(operation, safeToRepeat, work);
    }

    <T> T run(String operation, Function<DSLContext, T> work) {
        return retries.retrying(operation, () -> dsl.transactionResult(cfg -> {
            DSLContext tx = cfg.dsl();
            // Free when unchanged: the driver tracks the session's level (useLocalSessionState).
            tx.connection(c -> {
                if (c.getTransactionIsolation() != isolation) {
                    c.setTransactionIsolation(isolation);
                }
            });
            return work.apply(tx);
        }));
    }

    static int isolationOf(String name) {
        return switch (name) {
            case "READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            default -> throw new IllegalArgumentException("unsupported isolation " + name);
        };
    }
}
