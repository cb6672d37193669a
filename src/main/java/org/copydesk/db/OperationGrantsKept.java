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
 * Gives an operation's EXECUTE back to the accounts whose role has it (role_grant) as soon as its
 * file has made it again. Dropping a procedure drops its grants, and the migration regrants every
 * account only at its end: until then the clients of people at work would be refused the
 * operations already made again ("execute command denied", seen for a second or two on every
 * upgrade). The full regrant at the end still decides every account's rights; this only keeps the
 * rights they had. The procedure's name is checked against role_grant and the schema's routines;
 * the account's name is quoted by the server ({@code QUOTE}).
 */
final class OperationGrantsKept implements Callback {

    private static final Logger log = LoggerFactory.getLogger(OperationGrantsKept.class);

    /** The newsroom's accounts with their role: the view once a migration made it, else the tables it reads. */
    private static final String ACCOUNTS_VIEW = "select name, role from managed_account";
    private static final String ACCOUNTS_TABLES = "select e.id as name, e.role as role from editor e"
            + " where e.id <> substring_index(current_user(), '@', 1)"
            + " union all select i.name, i.kind from integration_account i";

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.AFTER_EACH_MIGRATE;
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
            if (!isGrantedOperation(c, routine)) {
                return;
            }
            for (String account : accountsWithIt(c, routine)) {
                try (Statement s = c.createStatement()) {
                    s.execute("grant execute on procedure `" + routine + "` to " + account + "@'%'");
                } catch (SQLException e) {
                    log.debug("EXECUTE on {} back to {}: {}", routine, account, e.getMessage()); // the regrant at the end decides
                }
            }
        } catch (SQLException e) {
            log.warn("Could not give EXECUTE on {} back before the regrant: {}", routine, e.getMessage());
        }
    }

    private static boolean isGrantedOperation(Connection c, String routine) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select count(*) from role_grant g join information_schema.routines r"
                + " on r.routine_schema = database() and r.routine_type = 'PROCEDURE' and binary r.routine_name = g.object_name"
                + " where g.privilege = 'EXECUTE' and binary g.object_name = ?")) {
            s.setString(1, routine);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getInt(1) > 0;
            }
        }
    }

    /** QUOTE()d names of the accounts whose role (or a role below it) has EXECUTE on {@code routine}. */
    private static List<String> accountsWithIt(Connection c, String routine) throws SQLException {
        String accounts = hasManagedAccountView(c) ? ACCOUNTS_VIEW : ACCOUNTS_TABLES;
        List<String> names = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select quote(a.name) from (" + accounts + ") a"
                + " where exists (select 1 from role_grant g where g.privilege = 'EXECUTE' and binary g.object_name = ?"
                + " and (g.role = a.role or (g.role = 'editor' and a.role in ('supervisor', 'admin'))"
                + " or (g.role = 'supervisor' and a.role = 'admin')))")) {
            s.setString(1, routine);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    names.add(r.getString(1));
                }
            }
        }
        return names;
    }

    private static boolean hasManagedAccountView(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select count(*) from information_schema.views"
                + " where table_schema = database() and table_name = 'managed_account'")) {
            return r.next() && r.getInt(1) > 0;
        }
    }

    @Override
    public String getCallbackName() {
        return "operation grants kept";
    }
}
