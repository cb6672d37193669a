package org.copydesk.review;

import java.util.List;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Database accounts for the people in the newsroom: one account per person, named like their
 * editor id, with the rights of their role. The rights themselves are defined in one place, the
 * database's {@code apply_role} ({@code db/migration/V4__database_api.sql}); accounts are created,
 * changed and dropped through the database's own operations ({@code create_account},
 * {@code set_account_password}, {@code drop_account}, {@code regrant_accounts}), which accept only
 * people of the newsroom. So a Copydesk admin needs no {@code CREATE USER} right of their own and
 * cannot touch {@code root} or another application's accounts.
 *
 * <table>
 *   <caption>What each role may do (besides reading articles, desks, editors and history)</caption>
 *   <tr><td>editor</td><td>no table writes at all; the editor's operations (claim, renew, release,
 *   decide, save a draft, presence, release expired leases, end stuck sessions), each checking
 *   identity, desk, capacity, state, token and time itself</td></tr>
 *   <tr><td>supervisor</td><td>an editor's operations plus force-release, reassign, extend,
 *   capacities and desks; for now still direct writes for import and requeue; every draft</td></tr>
 *   <tr><td>admin</td><td>the schema (migrations, purge) and the account operations</td></tr>
 * </table>
 */
public final class AccountAdministration {

    private final DSLContext dsl;
    /**
     * The account operations are sent as plain statements (values inlined and escaped by jOOQ): a
     * server-side prepared {@code CALL} whose routine changes accounts fails on MariaDB 11.4 with
     * "Recursive limit 0 … was exceeded" (the grant changes reload the routine cache mid-call).
     */
    private final DSLContext accountCalls;

    public AccountAdministration(DSLContext dsl) {
        this.dsl = dsl;
        this.accountCalls = DSL.using(dsl.configuration().derive(dsl.settings()
                .withStatementType(org.jooq.conf.StatementType.STATIC_STATEMENT)));
    }

    /**
     * Creates the person's account (or gives an existing one this password) with the rights of their
     * role in the newsroom. The person must exist already.
     */
    public void createAccount(String name, char[] password) {
        call("call create_account(?, ?)", name, password);
    }

    /** Gives an existing account a new password. */
    public void setPassword(String name, char[] password) {
        call("call set_account_password(?, ?)", name, password);
    }

    public void dropAccount(String name) {
        call("call drop_account(?)", name, null);
    }

    /**
     * Gives every existing person's account the rights of their role as this version defines them
     * (after a migration changed what a role may do, or a role changed). Returns how many.
     */
    public int regrantExistingAccounts() {
        try {
            return accountCalls.fetchOne("call regrant_accounts()").get(0, Integer.class);
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    /** Every role calls these (db/migration/V9 apply_role). */
    private static final List<String> EDITOR_OPERATIONS = List.of("claim_articles", "renew_leases", "release_article",
            "decide_article", "save_draft", "record_presence", "release_expired_leases", "end_stuck_transactions",
            "take_revision");
    /** Supervisors and admins also call these. */
    private static final List<String> SUPERVISOR_OPERATIONS = List.of("force_release_article", "reassign_article",
            "extend_lease", "set_editor_capacity", "set_editor_desks", "import_articles", "requeue_article",
            "correct_import_row", "discard_import_row", "relay_retry");

    /**
     * True when every person's account may call each operation of its role and read the outcome
     * feed (else regrant them). A migration that re-creates a procedure (DROP + CREATE) takes its
     * EXECUTE grants with it, so every operation is checked, not one. Reads the server's grant
     * tables: for the account that owns the database.
     */
    public boolean everyAccountHasCurrentGrants() {
        String missing = "select count(*) from mysql.user u join editor e on e.id = u.user where u.host = '%' and ("
                + "(select count(distinct p.routine_name) from mysql.procs_priv p where p.user = u.user and p.host = '%'"
                + " and p.db = database() and p.routine_name in (" + placeholders(EDITOR_OPERATIONS) + ")) < ?"
                + " or (e.role <> 'editor' and (select count(distinct p.routine_name) from mysql.procs_priv p"
                + " where p.user = u.user and p.host = '%' and p.db = database() and p.routine_name in ("
                + placeholders(SUPERVISOR_OPERATIONS) + ")) < ?)"
                + " or not exists (select 1 from mysql.tables_priv t where t.user = u.user and t.host = '%'"
                + " and t.db = database() and t.table_name = 'article_revision')" // V9's table: everyone reads it
                + " or (e.role <> 'editor' and not exists (select 1 from mysql.tables_priv t where t.user = u.user"
                + " and t.host = '%' and t.db = database() and t.table_name = 'outcome_feed')))"; // V11: supervisors only
        List<Object> binds = new java.util.ArrayList<>(EDITOR_OPERATIONS);
        binds.add(EDITOR_OPERATIONS.size());
        binds.addAll(SUPERVISOR_OPERATIONS);
        binds.add(SUPERVISOR_OPERATIONS.size());
        return dsl.fetchOne(missing, binds.toArray()).get(0, Integer.class) == 0;
    }

    private static String placeholders(List<String> names) {
        return String.join(", ", java.util.Collections.nCopies(names.size(), "?"));
    }

    /**
     * Creates (or renews) the account of another system: {@code feed_reader} reads only the view
     * {@code outcome_feed}; {@code relay} calls only the relay's operations. The name may not be a
     * person's, the server's own, or an existing account that is not a Copydesk integration.
     */
    public void createIntegrationAccount(String name, String kind, char[] password) {
        try {
            accountCalls.execute("call create_integration_account(?, ?, ?)", name, kind, new String(password));
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    public void dropIntegrationAccount(String name) {
        call("call drop_integration_account(?)", name, null);
    }

    /** A random password people can type: 16 letters and digits without look-alikes. */
    public static char[] randomPassword() {
        return org.copydesk.db.RandomPasswords.of(16);
    }

    /**
     * Removes anonymous accounts (which the server installer creates): with one, a client could sign
     * in under any name. For the account that owns the (embedded) server.
     */
    public void dropAnonymousAccounts() {
        for (var r : dsl.fetch("select host from mysql.user where user = ''")) {
            dsl.execute(DSL.query("drop user {0}@{1}", DSL.inline(""), DSL.inline(r.get(0, String.class)))
                    .getSQL(org.jooq.conf.ParamType.INLINED));
        }
    }

    private void call(String sql, String name, char[] password) {
        try {
            if (password == null) {
                accountCalls.execute(sql, name);
            } else {
                accountCalls.execute(sql, name, new String(password));
            }
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }
}
