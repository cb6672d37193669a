package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.copydesk.testing.XaTestsOneAtATime;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Limits on what one account can do to the others through the server's own doors: an editor's flood
 * of made-up XA ids fills no table and slows no honest sweep ({@code note_prepared_xa}); guessing a
 * password blocks the account after a few tries until an admin gives it a new one (MariaDB's
 * {@code max_password_errors}, MySQL's {@code FAILED_LOGIN_ATTEMPTS}); and an admin cannot give an
 * account an obvious password, even with a raw CALL ({@code password_refusal}).
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccountLimitsSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(AccountLimitsSecurityTest.class);
    private static final String ANN = "al_ann";
    private static final String BOB = "al_bob";
    private static final String ADM = "al_adm";
    private static final String MALLORY = "al_mallory";
    private static final String PASSWORD = "limits-Tested-2026";
    /** The format id of this class's abandoned XA transaction (XA RECOVER lists the whole server's). */
    private static final int XA_FORMAT = 21;
    /** What copydesk server sets and docs/security.md tells a DBA to set. */
    private static final int PASSWORD_ERRORS = 10;

    private final TestDatabase db;
    private final DSLContext root;
    private final Attacks attacks;
    private final AccountAdministration owner;
    private XaTestsOneAtATime xaTests;

    AccountLimitsSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.owner = new AccountAdministration(root);
    }

    @BeforeAll
    void accounts() {
        dropAccountsOfRefusedCalls();
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Annabel Lee", Role.EDITOR, 3, List.of("news"));
        n.addEditor(BOB, "Bob", Role.EDITOR, 3, List.of("news"));
        n.addEditor(MALLORY, "Mallory", Role.EDITOR, 3, List.of("news"));
        n.addEditor(ADM, "Adam", Role.ADMIN, 0, List.of());
        for (String person : List.of(ANN, BOB, MALLORY, ADM)) {
            owner.createAccount(person, PASSWORD.toCharArray());
        }
    }

    @AfterAll
    void close() {
        attacks.log(log, "an editor and an admin against the account limits");
        for (String person : List.of(ANN, BOB, MALLORY, ADM)) {
            owner.dropAccount(person);
        }
        dropAccountsOfRefusedCalls();
    }

    /** What a refused call would have made (left by an earlier run, where the calls went through). */
    private void dropAccountsOfRefusedCalls() {
        root.execute("drop user if exists 'al_newbie'@'%', 'al_feed'@'%'");
    }

    @Test
    void aFloodOfMadeUpXaIdsIsCappedAndTheHonestSweepStaysFastAndStillRollsBack() throws Exception {
        xaTests = XaTestsOneAtATime.take(db.endpoint());
        rollBackLeftOver();
        root.execute("update session_limit set xa_seconds = 1");
        try {
            // control: the honest path, an XA transaction left prepared, noted by a client's sweep
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                Attacks.runs(s, "XA START X'a1',X'01'," + XA_FORMAT, "SELECT COUNT(*) FROM lease_event",
                        "XA END X'a1',X'01'," + XA_FORMAT, "XA PREPARE X'a1',X'01'," + XA_FORMAT);
            }
            SessionSweep honest = new SessionSweep(root);
            assertThat(honest.runOnce().xaRolledBack()).as("seen for the first time").isZero();
            long noted = System.nanoTime();

            // the attack: made-up ids, 100 a call, as fast as one session can send them
            int calls = 30;
            long started = System.nanoTime();
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                for (int call = 0; call < calls; call++) {
                    StringJoiner ids = new StringJoiner(",", "[", "]");
                    for (int i = 0; i < 100; i++) {
                        ids.add(String.format("\"1:%08x:00\"", call * 100 + i));
                    }
                    Attacks.runs(s, "CALL note_prepared_xa('" + ids + "')");
                }
            }
            long floodMs = (System.nanoTime() - started) / 1_000_000;
            int rows = root.fetchOne("select count(*) from prepared_xa").get(0, Integer.class);
            log.info("{} made-up XA ids in {} ms ({} ids/s): {} rows of prepared_xa", calls * 100, floodMs,
                    calls * 100_000L / Math.max(1, floodMs), rows);
            assertThat(rows).as("rows of prepared_xa after %s made-up ids (200 per account, and the honest one)", calls * 100)
                    .isLessThanOrEqualTo(201);

            // the honest sweep still rolls back what it noted before the flood
            Thread.sleep(Math.max(0, 1_200 - (System.nanoTime() - noted) / 1_000_000));
            assertThat(preparedXaTransactions()).as("still prepared").isEqualTo(1);
            honest.runOnce();
            assertThat(preparedXaTransactions()).as("rolled back by the honest sweep after the flood").isZero();

            // a minute later nobody has listed the flood's ids: an honest call forgets a bounded step of them
            root.execute("update prepared_xa set first_seen = first_seen - interval 10 minute,"
                    + " last_seen = last_seen - interval 10 minute");
            int before = root.fetchOne("select count(*) from prepared_xa").get(0, Integer.class);
            long t = System.nanoTime();
            root.execute("call note_prepared_xa('[]')");
            long honestMs = (System.nanoTime() - t) / 1_000_000;
            int forgotten = before - root.fetchOne("select count(*) from prepared_xa").get(0, Integer.class);
            log.info("the next honest note_prepared_xa: {} ms, forgot {} of {} unseen rows", honestMs, forgotten, before);
            assertThat(forgotten).as("rows one honest call deletes").isLessThanOrEqualTo(100);
            attacks.noEffect("CALL note_prepared_xa with 100 made-up ids x" + calls + " (" + floodMs + " ms)",
                    rows + " rows kept; the honest sweep rolled back its XA transaction; the next honest call took "
                            + honestMs + " ms, forgetting " + forgotten + " rows");
        } finally {
            // on MySQL a prepared XA transaction holds its metadata locks: dropping the test's database would wait for ever
            rollBackLeftOver();
            root.execute("update session_limit set xa_seconds = 30");
            root.execute("delete from prepared_xa");
            XaTestsOneAtATime.release(xaTests);
        }
    }

    @Test
    void guessingAPasswordBlocksTheAccountUntilAnAdminGivesItANewOne() throws Exception {
        boolean mariaDb = root.fetchOne("select version()").get(0, String.class).contains("MariaDB");
        Long serverLimit = null;
        if (mariaDb) {
            long limit = root.fetchOne("select @@global.max_password_errors").get(0, Long.class);
            if (db.endpoint().kind().equals("embedded")) {
                assertThat(limit).as("max_password_errors of copydesk server").isEqualTo(PASSWORD_ERRORS);
            } else if (limit > PASSWORD_ERRORS) {
                // a DBA's server: set as docs/security.md tells its DBA to, and put back after
                serverLimit = limit;
                root.execute("set global max_password_errors = " + PASSWORD_ERRORS);
            }
        }
        String newPassword = "limits-Renewed-2026";
        try {
            // control: the right password signs in, a wrong one is refused as wrong
            assertThat(attacks.runs(ANN, PASSWORD, "SELECT CURRENT_USER()")).startsWith(ANN + "@");
            assertThat(signInRefusal(ANN, "not-the-password")).contains("Access denied");
            assertThat(attacks.runs(ANN, PASSWORD, "SELECT CURRENT_USER()")).as("a sign-in clears the count").startsWith(ANN + "@");

            // the attack: wrong passwords, one after the other
            int guesses = 30;
            int blockedAt = -1;
            long started = System.nanoTime();
            for (int i = 1; i <= guesses && blockedAt < 0; i++) {
                if (signInRefusal(ANN, "guess-" + i).contains("blocked")) {
                    blockedAt = i;
                }
            }
            long guessMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(blockedAt).as("the guess at which the account was blocked").isBetween(1, PASSWORD_ERRORS + 1);
            String refusal = signInRefusal(ANN, PASSWORD);
            assertThat(refusal).as("the right password, once blocked").contains("blocked");
            assertThat(attacks.runs(BOB, PASSWORD, "SELECT CURRENT_USER()")).as("another account").startsWith(BOB + "@");

            // the documented unlock: an admin gives the account a new password (copydesk editors set-password)
            attacks.runs(ADM, PASSWORD, "CALL set_account_password('" + ANN + "', '" + newPassword + "')");
            assertThat(attacks.runs(ANN, newPassword, "SELECT CURRENT_USER()")).as("after the admin's new password").startsWith(ANN + "@");
            attacks.noEffect("sign in as " + ANN + " with wrong passwords (" + guessMs + " ms)", "blocked at guess " + blockedAt
                    + "; the right password then refused: " + refusal + "; " + BOB + " unaffected; set_account_password unblocks");
        } finally {
            if (serverLimit != null) {
                root.execute("set global max_password_errors = " + serverLimit);
            }
            owner.setPassword(ANN, PASSWORD.toCharArray());
        }
    }

    @Test
    void anAdminCannotGiveAnAccountAnObviousPasswordEvenByARawCall() {
        // control: a good password is accepted, by the admin's raw CALL, and signs in
        String good = "limits-Accepted-2026";
        try {
            attacks.runs(ADM, PASSWORD, "CALL set_account_password('" + BOB + "', '" + good + "')");
            assertThat(attacks.runs(BOB, good, "SELECT CURRENT_USER()")).startsWith(BOB + "@");

            root.execute("delete from editor where id = 'al_newbie'");
            new Newsroom(root).addEditor("al_newbie", "Newbie Smith", Role.EDITOR, 3, List.of("news"));
            for (String obvious : List.of("password", "Password1!", "12345678", "qwerty123", "zzzzzzzzzz", "Copydesk2026", "bob-2026!")) {
                String reason = attacks.refused("CALL set_account_password of " + BOB + " with '" + obvious + "'",
                        () -> attacks.runs(ADM, PASSWORD, "CALL set_account_password('" + BOB + "', '" + obvious + "')"));
                assertThat(reason).as(obvious).contains("password");
            }
            for (String obvious : List.of("password", "Password1!", "12345678", "qwerty123", "zzzzzzzzzz", "al_newbie2026",
                    "Newbie.Smith99", "NEWBIE!!2026")) {
                attacks.refused("CALL create_account with '" + obvious + "'",
                        () -> attacks.runs(ADM, PASSWORD, "CALL create_account('al_newbie', '" + obvious + "')"));
                assertThatThrownBy(() -> AccountAdministration.checkNewPassword("al_newbie", "Newbie Smith", obvious.toCharArray(),
                        AccountAdministration.MIN_PASSWORD_LENGTH)).as("Java's courtesy check of " + obvious)
                        .isInstanceOf(IllegalArgumentException.class);
            }
            attacks.refused("CALL create_integration_account with 'password1234'", () -> attacks.runs(ADM, PASSWORD,
                    "CALL create_integration_account('al_feed', 'feed_reader', 'password1234')"));
            assertThat(root.fetch("select 1 from mysql.user where user in ('al_newbie', 'al_feed')").size())
                    .as("accounts made by the refused calls").isZero();
            assertThat(root.fetch("select 1 from integration_account where name = 'al_feed'").size()).isZero();
            assertThat(attacks.runs(BOB, good, "SELECT CURRENT_USER()")).as("the password before the refused ones").startsWith(BOB + "@");
            assertThat(signInRefusal(BOB, "password")).contains("Access denied");

            // the database refuses every common word of Java's list, with digits and signs added
            for (String word : AccountAdministration.COMMON_PASSWORD_LETTERS) {
                assertThat(root.fetchOne("select password_refusal('al_x', NULL, ?, 8)", word + "20261999!").get(0, String.class))
                        .as("the database's rule for %s20261999!", word).isNotNull();
            }
        } finally {
            owner.setPassword(BOB, PASSWORD.toCharArray());
        }
    }

    /** The server's words when {@code user} signs in with {@code password}; fails when it lets them in. */
    private String signInRefusal(String user, String password) {
        try (Connection c = attacks.session(user, password)) {
            throw new AssertionError(user + " signed in with " + password);
        } catch (SQLException refused) {
            return refused.getMessage();
        }
    }

    /** This class's XA transaction, if a failure (or a run stopped midway) left it prepared. */
    private void rollBackLeftOver() {
        if (preparedXaTransactions() > 0) {
            root.connection(c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("XA ROLLBACK X'a1',X'01'," + XA_FORMAT);
                } catch (SQLException rolledBackAnyway) {
                    // MariaDB answers XA_RBROLLBACK ("was rolled back") to rolling back another session's XA transaction
                    log.debug("XA ROLLBACK: {}", rolledBackAnyway.getMessage());
                }
            });
        }
        assertThat(preparedXaTransactions()).as("this class's XA transaction, rolled back").isZero();
    }

    /** This class's prepared XA transactions, by their format id. */
    private int preparedXaTransactions() {
        int[] count = {0};
        root.connection(c -> {
            try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("XA RECOVER")) {
                while (rs.next()) {
                    count[0] += rs.getInt(1) == XA_FORMAT ? 1 : 0;
                }
            }
        });
        return count[0];
    }
}
