package org.copydesk.review;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Database accounts for the people in the newsroom: one account per person, named like their
 * editor id, with the grants of their role. Together with the operations of
 * {@code V4__database_api.sql} these grants are Copydesk's security: the client is not trusted with
 * anything.
 *
 * <p>Account statements (CREATE USER, GRANT, REVOKE) cannot be written with jOOQ's open-source DSL
 * nor prepared with bind values, so they are plain-SQL templates here and only here. Names are
 * checked against a strict pattern and passwords are rendered as escaped literals by jOOQ.
 *
 * <table>
 *   <caption>What each role may do (besides reading articles, desks, editors and history)</caption>
 *   <tr><td>editor</td><td>no table writes at all; EXECUTE on the editor's operations (claim, renew,
 *   release, decide, save a draft, presence, release expired leases, end stuck sessions), each
 *   checking identity, desk, capacity, state, token and time itself</td></tr>
 *   <tr><td>supervisor</td><td>an editor's operations plus force-release, reassign and extend; for now
 *   still direct writes for import, requeue, capacities and desk assignments; every draft</td></tr>
 *   <tr><td>admin</td><td>everything on the schema (migrations, purge) and creating accounts</td></tr>
 * </table>
 */
public final class AccountAdministration {

    private static final String NAME = "[A-Za-z0-9_.-]{1,32}";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DSLContext dsl;

    public AccountAdministration(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Creates the account with the grants of its role (replacing the grants of an existing one). */
    public void createAccount(String name, Role role, char[] password) {
        checkName(name);
        if (password == null || password.length < 8) {
            throw new IllegalArgumentException("A password has at least 8 characters.");
        }
        execute("create user if not exists {0}@'%' identified by {1}", DSL.inline(name), DSL.inline(new String(password)));
        execute("alter user {0}@'%' identified by {1}", DSL.inline(name), DSL.inline(new String(password)));
        grant(name, role);
    }

    /** Gives an existing account a new password. */
    public void setPassword(String name, char[] password) {
        checkName(name);
        if (password == null || password.length < 8) {
            throw new IllegalArgumentException("A password has at least 8 characters.");
        }
        if (dsl.fetchOne("select count(*) from mysql.user where user = ? and host = '%'", name).get(0, Integer.class) == 0) {
            throw new IllegalArgumentException("There is no database account '" + name + "'.");
        }
        execute("alter user {0}@'%' identified by {1}", DSL.inline(name), DSL.inline(new String(password)));
    }

    /** Gives the account exactly the grants of {@code role}. */
    public void grant(String name, Role role) {
        checkName(name);
        revokeAll(name);
        for (String statement : grantsFor(role)) {
            execute(statement, DSL.inline(name));
        }
    }

    public void dropAccount(String name) {
        checkName(name);
        execute("drop user if exists {0}@'%'", DSL.inline(name));
    }

    /** A random password people can type: 16 letters and digits without look-alikes. */
    public static char[] randomPassword() {
        String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        char[] p = new char[16];
        for (int i = 0; i < p.length; i++) {
            p[i] = alphabet.charAt(RANDOM.nextInt(alphabet.length()));
        }
        return p;
    }

    /**
     * Removes anonymous accounts (which the server installer creates): with one, a client could
     * sign in under any name, and the triggers, which trust the signed-in name, would believe it.
     */
    public void dropAnonymousAccounts() {
        for (var r : dsl.fetch("select host from mysql.user where user = ''")) {
            execute("drop user {0}@{1}", DSL.inline(""), DSL.inline(r.get(0, String.class)));
        }
    }

    /** The operations every person may call (db/migration/V4__database_api.sql). */
    static final List<String> EDITOR_PROCEDURES = List.of("claim_articles", "renew_leases", "release_article",
            "decide_article", "save_draft", "record_presence", "release_expired_leases", "end_stuck_transactions");

    /** The supervisor's operations on top of an editor's. */
    static final List<String> SUPERVISOR_PROCEDURES = List.of("force_release_article", "reassign_article", "extend_lease");

    /**
     * The grant statements for a role; {0} is the account name. Editors get no INSERT, UPDATE or
     * DELETE anywhere: they read, and change data only through the database's operations.
     */
    List<String> grantsFor(Role role) {
        String db = "`" + schema() + "`";
        List<String> grants = new ArrayList<>();
        for (String table : List.of("article", "desk", "editor", "editor_desk", "lease_event", "decision",
                "flyway_schema_history", "own_review_draft")) {
            grants.add("grant select on " + db + ".`" + table + "` to {0}@'%'");
        }
        // review_draft: the keys only (who has a draft where); the notes through own_review_draft
        grants.add("grant select (article_id, editor_id) on " + db + ".`review_draft` to {0}@'%'");
        List<String> procedures = new ArrayList<>(EDITOR_PROCEDURES);
        switch (role) {
            case EDITOR -> { }
            case SUPERVISOR -> {
                procedures.addAll(SUPERVISOR_PROCEDURES);
                grants.add("grant select on " + db + ".`review_draft` to {0}@'%'");
                // Import and requeue still write tables directly (the lease_event_stamp trigger stamps
                // their history with the server's time and their name); see docs/security.md.
                grants.add("grant insert, update on " + db + ".`article` to {0}@'%'");
                grants.add("grant insert on " + db + ".`lease_event` to {0}@'%'");
                grants.add("grant select, insert, update on " + db + ".`import_quarantine` to {0}@'%'");
                grants.add("grant update (capacity) on " + db + ".`editor` to {0}@'%'");
                grants.add("grant insert, delete on " + db + ".`editor_desk` to {0}@'%'");
            }
            case ADMIN -> {
                procedures.addAll(SUPERVISOR_PROCEDURES);
                grants.add("grant all privileges on " + db + ".* to {0}@'%' with grant option");
                grants.add("grant create user on *.* to {0}@'%'");
            }
        }
        for (String procedure : procedures) {
            grants.add("grant execute on procedure " + db + ".`" + procedure + "` to {0}@'%'");
        }
        return grants;
    }

    /** True when every person's account may call this version's operations (else regrant them). */
    public boolean everyAccountHasCurrentGrants() {
        String last = EDITOR_PROCEDURES.get(EDITOR_PROCEDURES.size() - 1);
        int accounts = dsl.fetchOne("select count(*) from mysql.user u join editor e on e.id = u.user where u.host = '%'")
                .get(0, Integer.class);
        int granted = dsl.fetchOne("select count(*) from mysql.procs_priv p join editor e on e.id = p.user "
                + "where p.host = '%' and p.db = database() and p.routine_name = ?", last).get(0, Integer.class);
        return granted >= accounts;
    }

    /**
     * Gives every existing person's account the grants of their role as this version defines them
     * (after a migration changed what a role may do). Accounts of people without a row are left alone.
     */
    public int regrantExistingAccounts() {
        int done = 0;
        java.util.Set<String> accounts = new java.util.HashSet<>(
                dsl.fetch("select user from mysql.user where host = '%'").getValues(0, String.class));
        for (var editor : new Newsroom(dsl).editors()) {
            if (accounts.contains(editor.id()) && editor.id().matches(NAME)) {
                grant(editor.id(), editor.role());
                done++;
            }
        }
        return done;
    }

    private void revokeAll(String name) {
        // plain SQL: the jOOQ settings leave schemas unrendered, and mysql.user is in another schema
        if (dsl.fetchOne("select count(*) from mysql.user where user = ? and host = '%'", name).get(0, Integer.class) > 0) {
            execute("revoke all privileges, grant option from {0}@'%'", DSL.inline(name));
        }
    }

    private String schema() {
        return dsl.fetchOne("select database()").get(0, String.class);
    }

    private void execute(String template, Object... parts) {
        dsl.execute(DSL.query(template, parts).getSQL(org.jooq.conf.ParamType.INLINED));
    }

    private static void checkName(String name) {
        if (name == null || !name.matches(NAME)) {
            throw new IllegalArgumentException("An account name is 1 to 32 letters, digits, '.', '_' or '-'.");
        }
    }
}
