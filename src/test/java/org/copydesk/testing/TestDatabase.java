package org.copydesk.testing;

import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.jooq.DSLContext;

/** A fresh, migrated database of its own on the run's {@link TestServer}. */
public final class TestDatabase implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String name;
    private final Database database;
    private final TestServer.Endpoint endpoint;

    private TestDatabase(String name, Database database, TestServer.Endpoint endpoint) {
        this.name = name;
        this.database = database;
        this.endpoint = endpoint;
    }

    /** Creates and migrates a new database named after {@code label}. */
    public static TestDatabase create(String label, int poolSize) {
        TestServer.Endpoint endpoint = TestServer.endpoint();
        String name = ("t_" + label.replaceAll("[^A-Za-z0-9]", "_") + "_" + ProcessHandle.current().pid() + "_"
                + SEQUENCE.incrementAndGet()).toLowerCase(java.util.Locale.ROOT);
        if (name.length() > 64) {
            name = name.substring(name.length() - 64);
        }
        endpoint.execute("DROP DATABASE IF EXISTS `" + name + "`");
        Database db = Database.open(endpoint.url(name), endpoint.user(), endpoint.password().toCharArray(), null,
                DataSources.PoolSize.of(poolSize), Database.SchemaAction.MIGRATE, null);
        return new TestDatabase(name, db, endpoint);
    }

    public String name() {
        return name;
    }

    public Database database() {
        return database;
    }

    public DSLContext dsl() {
        return database.dsl();
    }

    public TestServer.Endpoint endpoint() {
        return endpoint;
    }

    public String url() {
        return endpoint.url(name);
    }

    @Override
    public void close() {
        database.close();
        endpoint.execute("DROP DATABASE IF EXISTS `" + name + "`");
    }
}
