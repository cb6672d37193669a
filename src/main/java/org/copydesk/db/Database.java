package org.copydesk.db;

import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open, migrated database: the pool, a jOOQ context in the server's dialect, what the server
 * can do, and (when used) the embedded server this process is attached to.
 */
public final class Database implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Database.class);

    /** Database (schema) name used on the embedded server. */
    public static final String EMBEDDED_SCHEMA = "copydesk";

    static {
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    private final ReconnectingPool pool;
    private final DataSource dataSource;
    private final DSLContext dsl;
    private final ServerCapabilities capabilities;
    private final EmbeddedServer embeddedServer;
    private final String userName;

    private Database(ReconnectingPool pool, DataSource dataSource, ServerCapabilities capabilities, EmbeddedServer embeddedServer,
                     String userName) {
        this.pool = pool;
        this.dataSource = dataSource;
        this.capabilities = capabilities;
        this.embeddedServer = embeddedServer;
        this.userName = userName;
        this.dsl = DSL.using(dataSource, capabilities.dialect(), settings());
    }

    /** What to do about the schema on open. */
    public enum SchemaAction { MIGRATE_OR_VALIDATE, MIGRATE, NONE }

    /**
     * Connects as configured (starting or attaching to the embedded server when nothing is
     * configured), refuses servers too old for the schema, and migrates or validates.
     */
    public static Database open(DatabaseConfig config, AppDirectories directories, DataSources.PoolSize size, SchemaAction schema) {
        EmbeddedServer server = null;
        ServerLocation location = ServerLocation.fixed(config.url());
        String user = config.user();
        char[] password = config.password();
        String sslMode = config.sslMode();
        if (config.isEmbedded()) {
            server = EmbeddedServer.startOrAttach(EmbeddedServer.Options.desktop(directories.embeddedServer()));
            location = server.rootLocation(EMBEDDED_SCHEMA);
            user = EmbeddedServer.ROOT_USER;
            password = server.rootPassword();
            sslMode = null; // the URL disables TLS: loopback only
        }
        try {
            return open(location, user, password, sslMode, size, schema, server);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /** Connects to a given URL (tests, benchmarks). The embedded server, if any, stays the caller's. */
    public static Database open(String url, String user, char[] password, String sslMode, DataSources.PoolSize size,
                                SchemaAction schema, EmbeddedServer attachedServer) {
        return open(ServerLocation.fixed(url), user, password, sslMode, size, schema, attachedServer);
    }

    /**
     * Connects to a server that may move (the embedded one, which can come back on another port):
     * the pool follows it (see {@link ReconnectingPool}). The embedded server, if any, stays the caller's.
     */
    public static Database open(ServerLocation location, String user, char[] password, String sslMode,
                                DataSources.PoolSize size, SchemaAction schema, EmbeddedServer attachedServer) {
        String url = location.jdbcUrl();
        char[] secret = password == null ? null : password.clone(); // for the pools made later; callers may wipe theirs
        ReconnectingPool ds = new ReconnectingPool(location,
                at -> DataSources.create(at, user, secret, sslMode, size, "copydesk"));
        try {
            ServerCapabilities caps = DataSources.probe(ds);
            java.util.Optional<String> refusal = caps.refusal();
            if (refusal.isPresent()) {
                throw new DatabaseSetupException(refusal.get());
            }
            log.info("Connected to {} ({}); SKIP LOCKED {}{}", caps.product(), ConnectionProblems.redact(url),
                    caps.supportsSkipLocked() ? "available" : "not available: using the blocking claim strategy",
                    caps.driverDropsFractionalSeconds() ? "; date-times are bound as text (the driver would drop their fractions)" : "");
            if (schema != SchemaAction.NONE) {
                ServerSettings.refuseReadOnly(ds);
            }
            DataSource forServer = DataSources.forServer(ds, caps);
            Migrations migrations = new Migrations(forServer);
            switch (schema) {
                case MIGRATE_OR_VALIDATE -> migrations.migrateOrValidate();
                case MIGRATE -> migrations.migrate();
                case NONE -> { }
            }
            return new Database(ds, forServer, caps, attachedServer, user);
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    public static Settings settings() {
        return new Settings()
                .withRenderSchema(false)
                .withExecuteLogging(false)
                .withRenderFormatted(false);
    }

    /** Brings the schema to this version (the database owner's account: see docs/security.md). */
    public Migrations.Outcome migrate() {
        return new Migrations(dataSource()).migrate();
    }

    public DSLContext dsl() {
        return dsl;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public ServerCapabilities capabilities() {
        return capabilities;
    }

    public Optional<EmbeddedServer> embeddedServer() {
        return Optional.ofNullable(embeddedServer);
    }

    /** The database account this pool signs in as. */
    public String userName() {
        return userName;
    }

    @Override
    public void close() {
        pool.close();
        if (embeddedServer != null) {
            embeddedServer.close();
        }
    }
}
