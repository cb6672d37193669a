package org.copydesk.db;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions a migration runs on: each waits at most {@code lockWaitSeconds} for a lock (metadata
 * or row) and gets its own settings back when the pool takes it back; their connection ids are
 * known (so the migration's watch can tell its own waits from others'); and on MariaDB a statement
 * that changes a table makes every session compile its routines afresh.
 */
final class MigratingSessions {

    private static final Logger log = LoggerFactory.getLogger(MigratingSessions.class);

    /** A statement that changes a table's definition (or its triggers): the routines that read it are compiled again. */
    private static final Pattern TABLE_CHANGE = Pattern.compile(
            "\\s*(alter\\s+table|drop\\s+table|rename\\s+table|create\\s+(unique\\s+)?index|drop\\s+index|create\\s+trigger"
            + "|drop\\s+trigger)", Pattern.CASE_INSENSITIVE);

    private final int lockWaitSeconds;
    private final Set<Long> ids = ConcurrentHashMap.newKeySet();

    MigratingSessions(int lockWaitSeconds) {
        this.lockWaitSeconds = lockWaitSeconds;
    }

    /** The connection ids of the sessions handed out and not yet returned. */
    Set<Long> ids() {
        return ids;
    }

    DataSource source(DataSource delegate) {
        return new Source(delegate);
    }

    private Connection adopt(Connection c) throws SQLException {
        long id;
        long lockWait;
        long rowLockWait;
        boolean formerDefault;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "select connection_id(), @@session.lock_wait_timeout, @@session.innodb_lock_wait_timeout,"
                + " @@collation_database <> (select DEFAULT_COLLATION_NAME from information_schema.SCHEMATA"
                + " where SCHEMA_NAME = database())")) {
            r.next();
            id = r.getLong(1);
            lockWait = r.getLong(2);
            rowLockWait = r.getLong(3);
            formerDefault = r.getBoolean(4);
            s.execute("set session lock_wait_timeout = " + lockWaitSeconds + ", innodb_lock_wait_timeout = " + lockWaitSeconds);
        }
        if (formerDefault) {
            enterAgain(c);
        }
        ids.add(id);
        boolean mariaDb = c.getMetaData().getDatabaseProductVersion().contains("MariaDB");
        InvocationHandler handler = (proxy, method, args) -> {
            if ("close".equals(method.getName()) && method.getParameterCount() == 0) {
                ids.remove(id);
                try (Statement s = c.createStatement()) {
                    s.execute("set session lock_wait_timeout = " + lockWait + ", innodb_lock_wait_timeout = " + rowLockWait);
                } catch (SQLException e) {
                    log.debug("putting a migrating session's lock waits back: {}", e.getMessage()); // ended: the pool drops it
                }
                c.close();
                return null;
            }
            Object result = invoke(method, c, args);
            return result instanceof Statement statement && "createStatement".equals(method.getName()) && mariaDb
                    ? tableChangesForgetRoutines(statement, c) : result;
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    /**
     * A session keeps the default collation its database had when it entered it, and a table it
     * creates takes that one, whatever the database's default is now: a session the pool opened
     * before {@link DatabaseCharacterSet} changed the default would create latin1 tables in a utf8mb4
     * database (a foreign key between the two is refused, errno 150). The pool's sessions are
     * replaced after the change, but one it was opening at that moment joins it afterwards. Entering
     * the database again makes the session take its present default; entering the database it is
     * already in does not, so it goes by information_schema (every account may).
     */
    private static void enterAgain(Connection c) throws SQLException {
        String database = c.getCatalog();
        log.info("A migrating session had entered the database before its default character set changed; it enters it again");
        c.setCatalog("information_schema");
        c.setCatalog(database);
    }

    /**
     * MariaDB (11.4.5 here) keeps each session's routines compiled in a cache; a cached routine whose
     * cursor reads a table altered since fails to compile it again (error 1064, "… near 'SELECT …
     * FROM article …'"), and the server later crashed (signal 11 in sp_cache_flush_obsolete) when that
     * session's cache was flushed. Making and dropping a routine right after each statement that
     * changes a table makes every session read its routines afresh at its next call, so only a call
     * already under way as the change ends can meet the old text.
     */
    private static Statement tableChangesForgetRoutines(Statement statement, Connection c) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result = invoke(method, statement, args);
            if (method.getName().startsWith("execute") && args != null && args.length > 0 && args[0] instanceof String sql
                    && TABLE_CHANGE.matcher(sql).lookingAt()) {
                try (Statement s = c.createStatement()) {
                    s.execute("create procedure copydesk_routines_forgotten() begin end");
                    s.execute("drop procedure copydesk_routines_forgotten");
                }
            }
            return result;
        };
        return (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[] {Statement.class}, handler);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Hands out the migration's sessions. */
    private final class Source implements DataSource {
        private final DataSource delegate;

        Source(DataSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return adopt(delegate.getConnection());
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return adopt(delegate.getConnection(user, password));
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return delegate.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            delegate.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            delegate.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return delegate.getLoginTimeout();
        }

        @Override
        public java.util.logging.Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return delegate.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return delegate.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return delegate.isWrapperFor(iface);
        }
    }
}
