package org.copydesk.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives an operation's EXECUTE back, as soon as its file has made it again, to exactly the accounts
 * that held it just before. Dropping a procedure drops its grants, and the migration regrants every
 * account only at its end: until then the clients of people at work would be refused the
 * operations already made again ("execute command denied", seen for a second or two on every
 * upgrade). The rights are read from the server's own grant table ({@code mysql.procs_priv}, which
 * the owner may read) before the file runs, so nothing here decides who gets a right: rows an admin
 * wrote, or a backup restored onto a fresh database, give nobody anything (the full regrant at the
 * end decides that). The procedure's name is the file's, checked against the schema's routines;
 * the account's name is quoted by the server ({@code QUOTE}).
 */
final class OperationGrantsKept implements Callback {

    private static final Logger log = LoggerFactory.getLogger(OperationGrantsKept.class);

    /** The accounts ({@code QUOTE}d) that held EXECUTE on the routine whose file is being applied. */
    private List<String> heldBefore = List.of();

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_EACH_MIGRATE || event == Event.AFTER_EACH_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        MigrationInfo applied = context.getMigrationInfo();
        if (applied == null || applied.getScript() == null || !applied.getScript().matches("R__[a-z_]+\\.sql")) {
            return;
        }
        String routine = applied.getScript().substring(3, applied.getScript().length() - 4);
        Connection c = context.getConnection();
        try {
            if (event == Event.BEFORE_EACH_MIGRATE) {
                heldBefore = accountsHoldingExecute(c, routine);
                return;
            }
            if (!isProcedure(c, routine)) {
                return;
            }
            for (String account : heldBefore) {
                try (Statement s = c.createStatement()) {
                    s.execute("grant execute on procedure `" + routine + "` to " + account + "@'%'");
                } catch (SQLException e) {
                    log.debug("EXECUTE on {} back to {}: {}", routine, account, e.getMessage()); // the regrant at the end decides
                }
            }
        } catch (SQLException e) {
            log.warn("Could not give EXECUTE on {} back before the regrant: {}", routine, e.getMessage());
        } finally {
            if (event == Event.AFTER_EACH_MIGRATE) {
                heldBefore = List.of();
            }
        }
    }

    private static boolean isProcedure(Connection c, String routine) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select count(*) from information_schema.routines"
                + " where routine_schema = database() and routine_type = 'PROCEDURE' and binary routine_name = ?")) {
            s.setString(1, routine);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getInt(1) > 0;
            }
        }
    }

    /** QUOTE()d names of the accounts {@code 'name'@'%'} that hold EXECUTE on the procedure now. */
    private static List<String> accountsHoldingExecute(Connection c, String routine) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select quote(user) from mysql.procs_priv where db = database()"
                + " and routine_name = ? and routine_type = 'PROCEDURE' and host = '%' and find_in_set('Execute', proc_priv) > 0")) {
            s.setString(1, routine);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    names.add(r.getString(1));
                }
            }
        } catch (SQLException e) {
            log.debug("Who holds EXECUTE on {} could not be read: {}", routine, e.getMessage()); // then the regrant at the end
        }
        return names;
    }

    @Override
    public String getCallbackName() {
        return "operation grants kept";
    }
}
