package org.copydesk.db;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * Whether the account that owns the Copydesk schema holds every server right its operations use.
 * The operations run with the owner's rights (definer rights), so a right the owner lacks fails
 * for everyone, often silently: without {@code PROCESS}, MySQL shows the sweep only the owner's own
 * transactions and nothing blocking is ever ended. Checked by {@code copydesk doctor} and after
 * {@code copydesk db migrate}; docs/security.md lists the rights and why each is needed.
 */
public final class OwnerRights {

    /** One right the owner lacks ({@code right}: a global privilege, or SELECT on grant tables), and what fails without it. */
    public record Missing(String right, String why, List<String> onObjects) {

        Missing(String right, String why) {
            this(right, why, List.of("*.*"));
        }
    }

    private static final List<String> GRANT_TABLES = List.of("user", "db", "tables_priv", "columns_priv", "procs_priv");
    /** MySQL's: which session holds the server's prepared statements (run_account_statement, when they are all taken). */
    private static final List<String> STATEMENT_HOLDER_TABLES = List.of("performance_schema.prepared_statements_instances",
            "performance_schema.threads");

    private OwnerRights() {
    }

    /** What the signed-in account of {@code database} (the owner) lacks on its server; empty when it has everything. */
    public static List<Missing> missing(Database database) {
        return missing(database.dsl(), database.capabilities().mariaDb());
    }

    /** What the signed-in account (the owner) lacks on this server; empty when it has everything. */
    public static List<Missing> missing(DSLContext dsl, boolean mariaDb) {
        Set<String> global = dsl.fetch("select privilege_type from information_schema.user_privileges where grantee = "
                        + "concat('''', substring_index(current_user(), '@', 1), '''@''', substring_index(current_user(), '@', -1), '''')")
                .getValues(0, String.class).stream().map(String::toUpperCase).collect(Collectors.toSet());
        List<Missing> missing = new ArrayList<>();
        if (!global.contains("PROCESS")) {
            missing.add(new Missing("PROCESS", "the sweep cannot see other sessions' transactions"));
        }
        String connectionAdmin = mariaDb ? "CONNECTION ADMIN" : "CONNECTION_ADMIN";
        if (!global.contains(connectionAdmin) && !(!mariaDb && global.contains("SUPER"))) {
            missing.add(new Missing(connectionAdmin, "the sweep cannot end a session that blocks others"));
        }
        if (!mariaDb && !global.contains("XA_RECOVER_ADMIN")) {
            missing.add(new Missing("XA_RECOVER_ADMIN", "the sweep cannot find abandoned XA transactions"));
        }
        if (!global.contains("CREATE USER")) {
            missing.add(new Missing("CREATE USER", "accounts cannot be created, limited, suspended or given their rights"));
        }
        List<String> unreadable = GRANT_TABLES.stream().filter(t -> !readable(dsl, "mysql." + t)).toList();
        if (!unreadable.isEmpty()) {
            missing.add(new Missing("SELECT", "the account operations cannot check which accounts are the newsroom's",
                    unreadable.stream().map(t -> "mysql." + t).toList()));
        }
        List<String> holdersUnreadable = mariaDb ? List.of() : STATEMENT_HOLDER_TABLES.stream().filter(t -> !readable(dsl, t)).toList();
        if (!holdersUnreadable.isEmpty()) {
            missing.add(new Missing("SELECT", "an account statement cannot find the session that holds every prepared statement",
                    holdersUnreadable));
        }
        return missing;
    }

    /**
     * One line for the admin: nothing when all is there, else which rights to grant (as root) and
     * what fails meanwhile.
     */
    public static String describe(String account, List<Missing> missing) {
        if (missing.isEmpty()) {
            return "The database owner " + account + " holds every right Copydesk's operations use.";
        }
        return "The database owner " + account + " lacks "
                + missing.stream().map(m -> m.right() + (m.onObjects().equals(List.of("*.*")) ? ""
                        : " on " + String.join(", ", m.onObjects())) + " (" + m.why() + ")").collect(Collectors.joining("; "))
                + ". As the server's root: "
                + missing.stream().flatMap(m -> m.onObjects().stream()
                        .map(on -> "GRANT " + m.right() + " ON " + on + " TO " + account + ";")).collect(Collectors.joining(" "));
    }

    private static boolean readable(DSLContext dsl, String table) {
        try {
            dsl.fetch("select 1 from " + table + " where false");
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }

    /** The signed-in account of {@code database} as the server names it ({@code 'name'@'host'}). */
    public static String currentAccount(Database database) {
        return currentAccount(database.dsl());
    }

    /** The signed-in account as the server names it ({@code 'name'@'host'}), for the grant statements. */
    public static String currentAccount(DSLContext dsl) {
        String user = dsl.fetchValue(DSL.field("current_user()", String.class));
        int at = user.lastIndexOf('@');
        return "'" + user.substring(0, at) + "'@'" + user.substring(at + 1) + "'";
    }
}
