package org.copydesk.review;

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

    /**
     * True when every person's account may call this version's operations (else regrant them). Reads
     * the server's grant tables: for the account that owns the database.
     */
    public boolean everyAccountHasCurrentGrants() {
        int accounts = dsl.fetchOne("select count(*) from mysql.user u join editor e on e.id = u.user where u.host = '%'")
                .get(0, Integer.class);
        int granted = dsl.fetchOne("select count(*) from mysql.procs_priv p join editor e on e.id = p.user "
                + "where p.host = '%' and p.db = database() and p.routine_name = 'end_stuck_transactions'").get(0, Integer.class);
        return granted >= accounts;
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
