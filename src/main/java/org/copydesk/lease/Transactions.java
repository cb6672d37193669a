package org.copydesk.lease;

import java.util.function.Function;
import org.jooq.DSLContext;

/** Runs engine work in a transaction at the engine's isolation level, retried on deadlock and lock wait timeout. */
final class Transactions {

    private final DSLContext dsl;
    private final IsolationLevel isolation;
    private final TransientErrors retries;

    Transactions(DSLContext dsl, IsolationLevel isolation, TransientErrors retries) {
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
                if (c.getTransactionIsolation() != isolation.jdbcLevel()) {
                    c.setTransactionIsolation(isolation.jdbcLevel());
                }
            });
            return work.apply(tx);
        }));
    }
}
