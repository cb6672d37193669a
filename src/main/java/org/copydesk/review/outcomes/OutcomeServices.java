package org.copydesk.review.outcomes;

import java.time.Clock;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.review.DatabaseOperations;

/**
 * The outcome feed and the relay over one database, for accounts that may be neither a person nor
 * an admin: an integration account reads only the feed's view (feed_reader) or calls only the
 * relay's operations (relay), so opening does not read or migrate the schema history.
 */
public final class OutcomeServices implements AutoCloseable {

    private final Database database;
    private final DatabaseOperations operations;

    public OutcomeServices(Database database) {
        this.database = database;
        this.operations = DatabaseOperations.withDefaultRetries(database.dsl());
    }

    /** Connects as configured; the schema is neither migrated nor validated (see the class comment). */
    public static OutcomeServices open(DatabaseConfig config, AppDirectories directories, int poolSize) {
        return new OutcomeServices(Database.open(config, directories, DataSources.PoolSize.of(poolSize),
                Database.SchemaAction.NONE));
    }

    public OutcomeFeed feed() {
        return new OutcomeFeed(database.dsl());
    }

    /** A relay acting as this account; the caller runs and closes it. */
    public WebhookRelay relay(WebhookSignature signature, RelaySettings settings, WebhookRelay.Listener listener) {
        return new WebhookRelay(relayProcedures(), signature, settings, WebhookRelay.instanceName(), Clock.systemUTC(), listener);
    }

    public RelayProcedures relayProcedures() {
        return new RelayProcedures(operations);
    }

    /** The relay's state for supervisors (needs a person's account: supervisors read the outbox). */
    public RelayState relayState() {
        return new RelayState(database.dsl(), operations);
    }

    @Override
    public void close() {
        database.close();
    }
}
