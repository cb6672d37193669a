package org.copydesk.review;

import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Database accounts for the people in the newsroom: one account per person, named like their
 * editor id, with the rights of their role. The rights themselves are data in one place, the rows
 * of {@code role_grant}, which the database checks against what a right may be and applies
 * ({@code role_rights}, {@code apply_role} in {@code db/routines}); accounts are created, changed and dropped through the
 * database's own operations ({@code create_account}, {@code regrant_account},
 * {@code set_account_password}, {@code drop_account}; {@code regrant_accounts} for the owner), which
 * accept only people of the newsroom. So a Copydesk admin needs no {@code CREATE USER} right of
 * their own and cannot touch {@code root} or another application's accounts.
 *
 * <table>
 *   <caption>What each role may do (besides reading articles, desks, editors and history)</caption>
 *   <tr><td>editor</td><td>no table writes at all; the editor's operations (claim, renew, release,
 *   decide, save a draft, presence, release expired leases, end stuck sessions), each checking
 *   identity, desk, capacity, state, token and time itself</td></tr>
 *   <tr><td>supervisor</td><td>an editor's operations plus force-release, reassign, extend,
 *   capacities and desks; for now still direct writes for import and requeue; every draft</td></tr>
 *   <tr><td>admin</td><td>a supervisor's, plus the account operations, the people and desks tables, and
 *   purging old history and delivered outcomes; not the schema (migrations are the owner's)</td></tr>
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

    /** The account operations over {@code database}, for tools that open it themselves (db migrate). */
    public static AccountAdministration of(org.copydesk.db.Database database) {
        return new AccountAdministration(database.dsl());
    }

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
        // MariaDB cannot grant EXECUTE on a routine while it runs: an admin's account gets its right
        // to create accounts from this second operation
        call("call regrant_account(?)", name, null);
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
     * True when every account of a person or of another system has exactly the rights of its role
     * or kind as {@code role_grant} lists them, nothing lacking and nothing beyond (else regrant
     * them). The database compares, with the same checked list it grants from
     * ({@code accounts_with_other_rights}): for the account that owns the database. A schema before
     * that comparison existed has accounts of an older version, whose rights cannot be this
     * version's.
     */
    public boolean everyAccountHasCurrentGrants() {
        if (dsl.fetchCount(DSL.table("information_schema.routines"), DSL.field("routine_schema").eq(DSL.field("database()"))
                .and(DSL.field("routine_name").eq("accounts_with_other_rights"))) == 0) {
            return false;
        }
        return accountCalls.fetch("call accounts_with_other_rights()").isEmpty();
    }

    /** Lets a suspended person or system sign in again before the suspension ends (an admin's); false when none was. */
    public boolean liftSuspension(String name) {
        try {
            return accountCalls.fetchOne("call lift_suspension(?)", name).get(0, Integer.class) == 1;
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
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
