package org.copydesk.bench;

import java.util.List;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * Many editors' accounts for a benchmark, quickly: each gets exactly the rights of an account
 * {@code create_account} made (its grants, copied onto a server role that every other account gets
 * as its default role) and the limits of {@code session_limit}. {@code create_account} checks and
 * regrants every right one by one, and took about a second per account on a server already holding
 * a hundred (90 accounts in 97 s): a thousand would take longer than the run. What the database sees of
 * an editor (USER(), the rights its statements use, its connection limit) is the same.
 */
final class BenchAccounts {

    private static final String ROLE = "bench_editor_rights";

    private BenchAccounts() {
    }

    static void likeThat(DSLContext root, String template, List<String> accounts, Function<String, char[]> password) {
        root.execute("CREATE ROLE IF NOT EXISTS " + ROLE);
        String grantee = "TO `" + template + "`@`%`";
        for (Record r : root.fetch("SHOW GRANTS FOR '" + template + "'@'%'")) {
            String grant = r.get(0, String.class);
            if (grant.startsWith("GRANT ") && !grant.startsWith("GRANT USAGE ON *.*") && grant.contains(grantee)) {
                root.execute(grant.replace(grantee, "TO " + ROLE));
            }
        }
        Record limits = root.fetchOne("select max_user_connections, max_statement_seconds from session_limit where id = 1");
        for (String account : accounts) {
            root.execute("CREATE USER '" + account + "'@'%' IDENTIFIED BY '" + new String(password.apply(account))
                    + "' WITH MAX_USER_CONNECTIONS " + limits.get(0, Long.class) + " MAX_STATEMENT_TIME " + limits.get(1, Long.class));
            root.execute("GRANT " + ROLE + " TO '" + account + "'@'%'");
            root.execute("SET DEFAULT ROLE " + ROLE + " FOR '" + account + "'@'%'");
        }
    }
}
