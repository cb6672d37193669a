package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations keep their own rules whatever the caller's session says (checks, foreign keys,
 * unique checks, time zone, SQL mode: each pinned by the operation itself), and what people type
 * into a reason, a release detail or notes is stored as plain text of bounded length, so it reaches
 * a terminal, a dashboard or another system's log as text.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperationIntegrityTest {

    private static final Logger log = LoggerFactory.getLogger(OperationIntegrityTest.class);
    private static final String ANN = "oi_ann";
    private static final String SUE = "oi_sue";
    private static final String PASSWORD = "operation-integrity-1";
    /** Control characters, a terminal escape, a line break and a right-to-left override. */
    private static final String HOSTILE = "ok\u0000\u0007\u001b[2J\u001b]0;pwned\u0007\nforged line\r\u202edesrever\u0085end";

    private final DSLContext root;
    private final Attacks attacks;
    private boolean mariaDb;

    OperationIntegrityTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount(ANN, PASSWORD.toCharArray());
        accounts.createAccount(SUE, PASSWORD.toCharArray());
        mariaDb = root.fetchOne("select version()").get(0, String.class).contains("MariaDB");
    }

    @AfterAll
    void close() {
        attacks.log(log, "people loosening the session or typing control characters");
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.dropAccount(ANN);
        accounts.dropAccount(SUE);
    }

    @BeforeEach
    void articles() {
        root.execute("delete from decision");
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
    }

    @Test
    void sessionSettingsDoNotLoosenTheChecksOfAnImport() {
        List<String> loosen = new ArrayList<>(List.of("SET SESSION foreign_key_checks = 0", "SET SESSION unique_checks = 0",
                "SET SESSION sql_mode = ''", "SET SESSION time_zone = '+13:00'"));
        if (mariaDb) {
            loosen.add(0, "SET SESSION check_constraint_checks = 0");
        }
        String[] rows = {
            "{\"line\": 1, \"external_id\": \"bad-priority\", \"desk\": \"news\", \"title\": \"T\", \"body\": \"B\", \"priority\": 9}",
            "{\"line\": 1, \"external_id\": \"ghost-desk\", \"desk\": \"ghost\", \"title\": \"T\", \"body\": \"B\", \"priority\": 3}"};
        for (String row : rows) {
            List<String> statements = new ArrayList<>(loosen);
            statements.add("CALL import_articles(NULL, 'imp-loose', 'loose.json', '[" + row + "]', '[]', 0)");
            attacks.refused(String.join("; ", loosen) + " then import " + row,
                    () -> attacks.runs(SUE, PASSWORD, statements.toArray(String[]::new)));
        }
        assertThat(root.fetchOne("select count(*) from article where priority not between 1 and 5 or desk_id not in (select id from desk)")
                .get(0, Integer.class)).as("no article breaks the table's rules").isZero();
        assertThat(attacks.runs(ANN, PASSWORD, "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)")).as("claims on the desk work")
                .isNotNull();
        assertThat(root.fetchOne("select count(*) from article where locked_by = ?", ANN).get(0, Integer.class)).isEqualTo(5);
    }

    @Test
    void reasonsDetailsAndNotesAreStoredAsPlainTextOfBoundedLength() {
        attacks.runs(ANN, PASSWORD, "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)");
        List<Long> held = root.fetch("select id from article where locked_by = ? order by id", ANN).getValues(0, Long.class);
        String longText = "x".repeat(10_000);
        attacks.runs(SUE, PASSWORD, "CALL force_release_article(NULL, " + held.get(0) + ", " + quoted(HOSTILE) + ")");
        try {
            attacks.runs(SUE, PASSWORD, "CALL force_release_article(NULL, " + held.get(1) + ", " + quoted(longText) + ")");
        } catch (IllegalStateException refusedAsTooLong) {
            // refused whole (the server's "Data too long") is as bounded as stored cut
            attacks.saw("a reason of 10,000 characters -> refused: " + refusedAsTooLong.getMessage());
        }
        attacks.runs(ANN, PASSWORD, "CALL release_article(NULL, " + held.get(2) + ", " + tokenOf(held.get(2)) + ", "
                + quoted(HOSTILE) + ")");
        String request = UUID.randomUUID().toString();
        attacks.runs(ANN, PASSWORD, "CALL decide_article(NULL, " + held.get(3) + ", " + tokenOf(held.get(3)) + ", '" + request
                + "', 'reject', " + quoted(HOSTILE) + ")");

        for (String detail : root.fetch("select detail from lease_event where action in ('force_release', 'release', 'reject')"
                + " or detail like 'force%'").getValues(0, String.class)) {
            assertThat(detail).as("history detail").doesNotContain("\u0000", "\u0007", "\u001b", "\n", "\r", "\u202e", "\u0085")
                    .hasSizeLessThanOrEqualTo(2000);
        }
        assertThat(root.fetch("select detail from lease_event where detail like '%forged line%'").getValues(0, String.class))
                .as("the words themselves are kept").isNotEmpty();
        String notes = root.fetchOne("select notes from decision where request_id = ?", request).get(0, String.class);
        assertThat(notes).as("decision notes keep their lines, nothing else").contains("\n")
                .doesNotContain("\u0000", "\u0007", "\u001b", "\r", "\u202e", "\u0085");
        attacks.saw("reasons, release details and notes with NUL, BEL, ESC sequences, CR, a right-to-left override and"
                + " 10,000 characters -> stored as plain text, history at most 2,000 characters, notes keep their line breaks");
    }

    @Test
    void theDecisionsHistoryHoldsItsNotesOnOneLineOfAtMostTwoThousandCharacters() {
        String[] notes = {
            "Fine as it is, café ünd naïve", // plain, short: stored as typed
            "Needs a source\tfor the figures", // a tab
            "Two lines\r\nof notes", // a line break
            "y".repeat(1999) + "\u202e", // an override that becomes a space: 2,000 characters
            "z".repeat(2001), // one too many
            "\u0007".repeat(2001) + "\ttail", // long only with what becomes spaces
        };
        String[] history = {
            notes[0],
            "Needs a source for the figures",
            "Two lines of notes",
            "y".repeat(1999) + " ",
            "z".repeat(1997) + "...",
            " ".repeat(1997) + "...",
        };
        for (int i = 0; i < notes.length; i++) {
            attacks.runs(ANN, PASSWORD, "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)");
            long article = root.fetchOne("select min(id) from article where locked_by = ?", ANN).get(0, Long.class);
            attacks.runs(ANN, PASSWORD, "CALL decide_article(NULL, " + article + ", " + tokenOf(article) + ", '"
                    + UUID.randomUUID() + "', 'reject', " + quoted(notes[i]) + ")");
            assertThat(root.fetchOne("select detail from lease_event where action = 'reject' and row_key = ?",
                    String.valueOf(article)).get(0, String.class)).as("history of note %d", i).isEqualTo(history[i]);
        }
        attacks.saw("decisions with notes plain and short, with a tab, with a line break, of 2,000 characters after cleaning"
                + " and longer -> the history holds each on one line of at most 2,000 characters");
    }

    private long tokenOf(long article) {
        return root.fetchOne("select lease_token from article where id = ?", article).get(0, Long.class);
    }

    /** A SQL string literal with every character as it is (escaped for the statement only). */
    private static String quoted(String text) {
        StringBuilder out = new StringBuilder("'");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\'' -> out.append("''");
                case '\\' -> out.append("\\\\");
                case '\u0000' -> out.append("\\0");
                default -> out.append(c);
            }
        }
        return out.append('\'').toString();
    }
}
