package org.copydesk.db;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection pool that follows its server. When the pool cannot get a connection it asks the
 * {@link ServerLocation} to find the server again; if the server is now at another URL (the
 * embedded server restarted on another port), a new pool for that URL replaces the old one and the
 * caller gets a connection from it. Everything above (jOOQ, the services, the windows' reconnect
 * probes) keeps its one data source and simply finds the database working again.
 */
final class ReconnectingPool implements DataSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReconnectingPool.class);

    private final ServerLocation location;
    private final Function<String, HikariDataSource> openPool;
    private volatile HikariDataSource pool;
    private volatile boolean closed;

    /** Opens the first pool at once (failing as {@link DataSources#create} does when the server is not there). */
    ReconnectingPool(ServerLocation location, Function<String, HikariDataSource> openPool) {
        this.location = location;
        this.openPool = openPool;
        this.pool = openPool.apply(location.jdbcUrl());
    }

    @Override
    public Connection getConnection() throws SQLException {
        HikariDataSource used = pool;
        try {
            return used.getConnection();
        } catch (SQLException e) {
            HikariDataSource moved = followServer(used, e);
            if (moved == null) {
                throw e;
            }
            return moved.getConnection();
        }
    }

    /**
     * After {@code failed} could not give a connection: the pool for where the server is now, or
     * null when it has not moved (or cannot be found). One thread at a time; the others then use
     * the pool it made.
     */
    private synchronized HikariDataSource followServer(HikariDataSource failed, SQLException failure) {
        if (closed) {
            return null;
        }
        if (pool != failed) {
            return pool;
        }
        try {
            if (!location.findAgain() || location.jdbcUrl().equals(failed.getJdbcUrl())) {
                return null;
            }
            String url = location.jdbcUrl();
            HikariDataSource fresh = openPool.apply(url);
            pool = fresh;
            failed.close();
            log.info("Reconnected to the database at its new address {}", ConnectionProblems.redact(url));
            return fresh;
        } catch (RuntimeException e) {
            log.warn("Could not find the database server again after \"{}\": {}", failure.getMessage(), e.getMessage());
            return null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        pool.close();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("The pool signs in with its own account");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public java.util.logging.Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || pool.isWrapperFor(iface);
    }
}
