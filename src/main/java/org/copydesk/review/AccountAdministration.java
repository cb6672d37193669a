package org.copydesk.review;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Database accounts for the people in the newsroom: one account per person, named like their
 * editor id, with the grants of their role. Together with the triggers of {@code V2__security.sql}
 * these grants are Copydesk's security: the client is not trusted with anything.
 *
 * <p>Account statements (CREATE USER, GRANT, REVOKE) cannot be written with jOOQ's open-source DSL
 * nor prepared with bind values, so they are plain-SQL templates here and only here. Names are
 * checked against a strict pattern and passwords are rendered as escaped literals by jOOQ.
 *
 * <table>
 *   <caption>What each role may do (besides reading articles, desks, editors and history)</caption>
 *   <tr><td>editor</td><td>the lease columns of article (claim, renew, release, decide: checked by
 *   triggers), insert history and decisions (stamped by triggers), own drafts, own heartbeat</td></tr>
 *   <tr><td>supervisor</td><td>everything an editor may, plus any change to articles (force-release,
 *   reassign, extend, requeue, import), every draft, capacities and desk assignments</td></tr>
 *   <tr><td>admin</td><td>everything on the schema (migrations, purge) and creating accounts</td></tr>
 * </table>
 */
public final class AccountAdministration {

    /** Columns an editor may write: the lease and the decision, never the text. */
    static final List<String> EDITOR_ARTICLE_COLUMNS = List.of("locked_by", "expires_at", "lease_token", "queue_lane",
            "claimed_at", "renewals", "status", "attempts", "available_at", "decided_by", "decided_at", "decision_note",
            "updated_at");

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

    /** The grant statements for a role; {0} is the account name. */
    List<String> grantsFor(Role role) {
        String db = "`" + schema() + "`";
        List<String> grants = new ArrayList<>();
        for (String table : List.of("article", "desk", "editor", "editor_desk", "lease_event", "decision",
                "flyway_schema_history", "own_review_draft")) {
            grants.add("grant select on " + db + ".`" + table + "` to {0}@'%'");
        }
        grants.add("grant insert on " + db + ".`lease_event` to {0}@'%'");
        grants.add("grant insert on " + db + ".`decision` to {0}@'%'");
        grants.add("grant select (article_id, editor_id), insert, update, delete on " + db + ".`review_draft` to {0}@'%'");
        grants.add("grant update (last_seen_at) on " + db + ".`editor` to {0}@'%'");
        switch (role) {
            case EDITOR -> grants.add("grant update (" + String.join(", ", EDITOR_ARTICLE_COLUMNS) + ") on " + db
                    + ".`article` to {0}@'%'");
            case SUPERVISOR -> {
                grants.add("grant insert, update on " + db + ".`article` to {0}@'%'");
                grants.add("grant select on " + db + ".`review_draft` to {0}@'%'");
                grants.add("grant select, insert, update on " + db + ".`import_quarantine` to {0}@'%'");
                grants.add("grant update (capacity) on " + db + ".`editor` to {0}@'%'");
                grants.add("grant insert, delete on " + db + ".`editor_desk` to {0}@'%'");
            }
            case ADMIN -> {
                grants.add("grant all privileges on " + db + ".* to {0}@'%' with grant option");
                grants.add("grant create user on *.* to {0}@'%'");
            }
        }
        return grants;
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
