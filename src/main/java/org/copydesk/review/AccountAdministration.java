package org.copydesk.review;

import static org.copydesk.db.schema.Tables.EDITOR;

import org.copydesk.AllowedBecause;
import org.copydesk.db.Database;
import org.copydesk.db.RandomPasswords;
import org.jooq.DSLContext;
import org.jooq.conf.ParamType;
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
    private final DatabaseOperations operations;

    /** The account operations over {@code database}, for tools that open it themselves (db migrate). */
    public static AccountAdministration of(Database database) {
        return new AccountAdministration(database.dsl());
    }

    /** Over {@code dsl}, with Copydesk's default retries. */
    public AccountAdministration(DSLContext dsl) {
        this(dsl, DatabaseOperations.withDefaultRetries(dsl));
    }

    AccountAdministration(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.operations = operations;
    }

    /**
     * Creates the person's account (or gives an existing one this password) with the rights of their
     * role in the newsroom. The person must exist already.
     */
    public void createAccount(String name, char[] password) {
        operations.execute(Operation.CREATE_ACCOUNT, name, new String(password));
        regrantIfAdmin(name);
    }

    /**
     * MariaDB cannot grant EXECUTE on a routine while it runs: an admin's account gets its right to
     * create accounts from this second operation. Nobody else needs it (it was half the cost of
     * creating an account).
     */
    private void regrantIfAdmin(String name) {
        if (dsl.fetchExists(EDITOR, EDITOR.ID.eq(name).and(EDITOR.ROLE.eq(org.copydesk.db.schema.enums.EditorRole.admin)))) {
            operations.execute(Operation.REGRANT_ACCOUNT, name);
        }
    }

    /**
     * Creates the person's account (or turns an existing one into one) that signs in with the
     * newsroom's directory password, through the database server's PAM plugin; Copydesk keeps no
     * password for it. Refused, with nothing changed, by a server that cannot (MySQL, the embedded one).
     */
    public void createDirectoryAccount(String name) {
        operations.execute(Operation.CREATE_DIRECTORY_ACCOUNT, name);
        regrantIfAdmin(name);
    }

    /** Gives an account the rights and limits of its person's role as it is now (after the role changed). */
    public void regrant(String name) {
        operations.execute(Operation.REGRANT_ACCOUNT, name);
    }

    /** Gives an existing account a new password. */
    public void setPassword(String name, char[] password) {
        operations.execute(Operation.SET_ACCOUNT_PASSWORD, name, new String(password));
    }

    public void dropAccount(String name) {
        operations.execute(Operation.DROP_ACCOUNT, name);
    }

    /**
     * Gives every existing person's account the rights of their role as this version defines them
     * (after a migration changed what a role may do, or a role changed). Returns how many.
     */
    public int regrantExistingAccounts() {
        return operations.fetch(Operation.REGRANT_ACCOUNTS).get(0).get(0, Integer.class);
    }

    /**
     * True when every account of a person or of another system has exactly the rights of its role
     * or kind as {@code role_grant} lists them, nothing lacking and nothing beyond (else regrant
     * them). The database compares, with the same checked list it grants from
     * ({@code accounts_with_other_rights}): for the account that owns the database. A schema before
     * that comparison existed has accounts of an older version, whose rights cannot be this
     * version's.
     */
    @AllowedBecause("reads information_schema.routines, which the generated classes do not describe; writes nothing")
    public boolean everyAccountHasCurrentGrants() {
        if (dsl.fetchCount(DSL.table("information_schema.routines"), DSL.field("routine_schema").eq(DSL.field("database()"))
                .and(DSL.field("routine_name").eq("accounts_with_other_rights"))) == 0) {
            return false;
        }
        return operations.fetch(Operation.ACCOUNTS_WITH_OTHER_RIGHTS).isEmpty();
    }

    /** Lets a suspended person or system sign in again before the suspension ends (an admin's); false when none was. */
    public boolean liftSuspension(String name) {
        return operations.fetch(Operation.LIFT_SUSPENSION, name).get(0).get(0, Integer.class) == 1;
    }

    /**
     * Creates (or renews) the account of another system: {@code feed_reader} reads only the view
     * {@code outcome_feed}; {@code relay} calls only the relay's operations. The name may not be a
     * person's, the server's own, or an existing account that is not a Copydesk integration.
     */
    public void createIntegrationAccount(String name, String kind, char[] password) {
        operations.execute(Operation.CREATE_INTEGRATION_ACCOUNT, name, kind, new String(password));
    }

    public void dropIntegrationAccount(String name) {
        operations.execute(Operation.DROP_INTEGRATION_ACCOUNT, name);
    }

    /**
     * What an embedded server's administrator does at every start: no anonymous accounts, and every
     * person's account with the rights of this version (after an upgrade changed them).
     */
    public void keepEmbeddedAccountsCurrent() {
        dropAnonymousAccounts();
        if (!everyAccountHasCurrentGrants()) {
            regrantExistingAccounts();
        }
    }

    /**
     * Why the signed-in account may not migrate the schema, if it may not. Migrations create the
     * operations that run with their creator's rights and give people's accounts their rights, so
     * only the database's owner runs them: an account with {@code CREATE USER}, not one of the
     * newsroom's people (whose operations would then run with a person's rights) nor another
     * system's account. Read before anything is changed, so a refused migration changes nothing.
     */
    @AllowedBecause("reads the server's account and privilege tables (current_user(), information_schema), which the"
            + " generated classes do not describe; writes nothing")
    public java.util.Optional<String> whyNotTheOwner() {
        String account = dsl.fetchOne("select current_user()").get(0, String.class);
        String name = account.contains("@") ? account.substring(0, account.lastIndexOf('@')) : account;
        String host = account.contains("@") ? account.substring(account.lastIndexOf('@') + 1) : "%";
        String who = "The account '" + name + "'";
        boolean person = false;
        boolean hasEditors = dsl.fetchCount(DSL.table("information_schema.tables"),
                DSL.field("table_schema").eq(DSL.field("database()")).and(DSL.field("table_name").eq("editor"))) > 0;
        if (hasEditors) {
            var role = dsl.fetchOptional("select role from editor where id = ?", name).map(r -> r.get(0, String.class));
            if (role.isPresent()) {
                person = true;
                who = "'" + name + "' is " + (role.get().equals("editor") || role.get().equals("admin") ? "an " : "a ")
                        + role.get() + " of the newsroom and";
            }
        }
        // information_schema.user_privileges names an account as 'name'@'host'
        boolean createUser = dsl.fetchCount(DSL.table("information_schema.user_privileges"),
                DSL.field("privilege_type").eq("CREATE USER").and(DSL.field("grantee").eq("'" + name + "'@'" + host + "'"))) > 0;
        if (createUser && !person) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(who + " may not migrate the schema: run copydesk db migrate as the database's owner"
                + " (the account that created it, with CREATE USER and GRANT OPTION; on the embedded server: on the server's"
                + " computer, as the system user that runs copydesk server, without --db-url).");
    }

    /** The database's own rule for a person's password ({@code create_account}, {@code set_account_password}). */
    public static final int MIN_PASSWORD_LENGTH = 8;

    /** The database's length for another system's password ({@code create_integration_account}). */
    public static final int MIN_INTEGRATION_PASSWORD_LENGTH = 12;

    /**
     * The commonest passwords by their letters (what is left of {@code Password1!} when digits and
     * signs go): the list of the database's {@code password_refusal}, which checks it again;
     * {@code AccountLimitsSecurityTest} shows the database refuses every one of these.
     */
    static final java.util.Set<String> COMMON_PASSWORD_LETTERS = java.util.Set.of("", "password", "passwort", "passwd",
            "pass", "pw", "qwerty", "qwertz", "azerty", "qwertyuiop", "qwe", "qweasd", "qweasdzxc", "qazwsx", "qaz", "wsx",
            "asdf", "asdfgh", "asdfghjkl", "zxcvbn", "zxcvbnm", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "aaa",
            "q", "qw", "qwer", "qwert", "a", "ab", "letmein", "welcome", "admin", "administrator", "root", "toor", "iloveyou",
            "monkey", "dragon", "football", "baseball", "soccer", "sunshine", "princess", "master", "shadow", "superman",
            "batman", "trustno", "secret", "changeme", "default", "login", "test", "guest", "user", "hello", "freedom",
            "whatever", "starwars", "michael", "jennifer", "charlie", "computer", "internet", "access", "mustang", "killer",
            "copydesk", "newsroom", "editor", "supervisor", "mariadb", "mysql", "database");

    /** The password rule for a person whose name is not known here; see the other overload. */
    public static void checkNewPassword(char[] password) {
        checkNewPassword(null, null, password, MIN_PASSWORD_LENGTH);
    }

    /**
     * The database's password rule ({@code password_refusal}), checked before anything is created or
     * changed (so a refused password never leaves a person without an account); the database checks
     * it again. Refused, with one line that says what is wanted: shorter than {@code minLength}, one
     * character repeated, the account's name, {@code displayName} or a word of it with at most digits
     * and signs added, or one of the commonest passwords (no letters at all, or letters that are a common word).
     */
    public static void checkNewPassword(String name, String displayName, char[] password, int minLength) {
        if (password == null || password.length < minLength) {
            throw new IllegalArgumentException(Phrase.of("review.account.passwordTooShort", minLength).text());
        }
        boolean oneCharacter = true;
        for (char c : password) {
            oneCharacter &= c == password[0];
        }
        if (oneCharacter) {
            throw new IllegalArgumentException(Phrase.of("review.account.passwordOneCharacter").text());
        }
        String letters = letters(new String(password));
        if (COMMON_PASSWORD_LETTERS.contains(letters)) {
            throw new IllegalArgumentException(Phrase.of("review.account.passwordCommon", minLength).text());
        }
        boolean aName = name != null && letters.equals(letters(name))
                || displayName != null && (letters.equals(letters(displayName))
                        || java.util.Arrays.stream(displayName.split(" ")).anyMatch(word -> letters.equals(letters(word))));
        if (aName) {
            throw new IllegalArgumentException(Phrase.of("review.account.passwordIsAName").text());
        }
    }

    /** The letters a to z of {@code text}, lowercased, as the database's {@code password_letters} keeps them. */
    private static String letters(String text) {
        StringBuilder kept = new StringBuilder();
        for (char c : text.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
            if (c >= 'a' && c <= 'z') {
                kept.append(c);
            }
        }
        return kept.toString();
    }

    /**
     * Gives a person's account a new password; a person who has no account yet (added with
     * {@code --no-account}, or left without one by an older Copydesk whose password was refused)
     * gets one with the rights of their role. Returns false when the account was created.
     */
    public boolean setPasswordOrCreateAccount(String name, char[] password) {
        try {
            setPassword(name, password);
            return true;
        } catch (OperationRefusedException e) {
            // set_account_password's refusal for a person without an account (V4); any other refusal stands
            if (!e.getMessage().contains("no database account")) {
                throw e;
            }
            createAccount(name, password);
            return false;
        }
    }

    /** A random password people can type: 16 letters and digits without look-alikes. */
    public static char[] randomPassword() {
        return RandomPasswords.of(16);
    }

    /**
     * Removes anonymous accounts (which the server installer creates): with one, a client could sign
     * in under any name. For the account that owns the (embedded) server.
     */
    @AllowedBecause("the server's own accounts (mysql.user), not the newsroom's tables: the embedded server's owner"
            + " removes what its installer created")
    public void dropAnonymousAccounts() {
        for (var r : dsl.fetch("select host from mysql.user where user = ''")) {
            dsl.execute(DSL.query("drop user {0}@{1}", DSL.inline(""), DSL.inline(r.get(0, String.class)))
                    .getSQL(ParamType.INLINED));
        }
    }
}
