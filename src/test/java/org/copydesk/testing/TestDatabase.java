package org.copydesk.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.jooq.DSLContext;

/** A fresh database of its own, with this build's schema, on the run's {@link TestServer}. */
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

    /**
     * A new database named after {@code label}, with the schema this build's migrations make: a copy
     * of a template the migrations made once for this test JVM and server ({@link SchemaCopy}; the
     * migrations themselves are what {@link #migrated} and the schema tests run). With
     * {@code -Dcopydesk.test.migrateEach=true} every database is migrated instead.
     */
    public static TestDatabase create(String label, int poolSize) {
        if (Boolean.getBoolean("copydesk.test.migrateEach")) {
            return migrated(label, poolSize);
        }
        TestServer.Endpoint endpoint = TestServer.endpoint();
        Template template = Template.on(endpoint);
        String name = freshName(label, endpoint);
        endpoint.execute("CREATE DATABASE `" + name + "` CHARACTER SET " + template.characterSet + " COLLATE " + template.collation);
        Database db = open(endpoint, name, poolSize, Database.SchemaAction.NONE);
        try (Connection c = db.dataSource().getConnection()) {
            new SchemaCopy(template.name).into(c, name);
        } catch (SQLException | RuntimeException e) {
            db.close();
            endpoint.execute("DROP DATABASE IF EXISTS `" + name + "`");
            throw new IllegalStateException("Copying the migrated template " + template.name + " into " + name + " failed: "
                    + e.getMessage(), e);
        }
        return new TestDatabase(name, db, endpoint);
    }

    /** A new database named after {@code label}, made by running every migration on it. */
    public static TestDatabase migrated(String label, int poolSize) {
        TestServer.Endpoint endpoint = TestServer.endpoint();
        String name = freshName(label, endpoint);
        return new TestDatabase(name, open(endpoint, name, poolSize, Database.SchemaAction.MIGRATE), endpoint);
    }

    private static String freshName(String label, TestServer.Endpoint endpoint) {
        String name = ("t_" + label.replaceAll("[^A-Za-z0-9]", "_") + "_" + ProcessHandle.current().pid() + "_"
                + SEQUENCE.incrementAndGet()).toLowerCase(java.util.Locale.ROOT);
        if (name.length() > 64) {
            name = name.substring(name.length() - 64);
        }
        endpoint.execute("DROP DATABASE IF EXISTS `" + name + "`");
        return name;
    }

    private static Database open(TestServer.Endpoint endpoint, String name, int poolSize, Database.SchemaAction schema) {
        return Database.open(endpoint.url(name), endpoint.user(), endpoint.password().toCharArray(), null,
                DataSources.PoolSize.of(poolSize), schema, null);
    }

    /** The database the migrations made once for this JVM and server; dropped when the JVM ends. */
    private record Template(String name, String characterSet, String collation) {

        private static final Map<TestServer.Endpoint, Template> MADE = new ConcurrentHashMap<>();

        static Template on(TestServer.Endpoint endpoint) {
            return MADE.computeIfAbsent(endpoint, Template::make);
        }

        private static Template make(TestServer.Endpoint endpoint) {
            TestDatabase migrated = migrated("template", 2);
            String name = migrated.name();
            migrated.database().close();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    endpoint.execute("DROP DATABASE IF EXISTS `" + name + "`");
                } catch (RuntimeException e) {
                    // the embedded server may have stopped first; its data goes with it
                }
            }, "drop-" + name));
            try (Connection c = endpoint.adminConnection();
                 PreparedStatement p = c.prepareStatement("SELECT default_character_set_name, default_collation_name"
                         + " FROM information_schema.schemata WHERE schema_name = ?")) {
                p.setString(1, name);
                try (ResultSet r = p.executeQuery()) {
                    r.next();
                    return new Template(name, SchemaCopy.identifier(r.getString(1)), SchemaCopy.identifier(r.getString(2)));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Reading the template's character set failed: " + e.getMessage(), e);
            }
        }
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
