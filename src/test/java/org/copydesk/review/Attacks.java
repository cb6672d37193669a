package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.slf4j.Logger;

/**
 * How the attack suite runs and judges an attack: raw sessions of a person's own account (as a SQL
 * client would open them, not Copydesk's pool), a snapshot of everything an attack could change,
 * and the log of what each attempt got from the server (docs/security.md quotes it).
 */
final class Attacks {

    private final TestDatabase db;
    private final DSLContext root;
    private final List<String> attempts = new ArrayList<>();

    Attacks(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    /** A person's URL to the test database, with the server's own connection options (TLS on MySQL 8). */
    String url() {
        return db.endpoint().accountUrl(db.name());
    }

    /** A raw session of the account. */
    Connection session(String user, String password) throws SQLException {
        return DriverManager.getConnection(url(), user, password);
    }

    /** Runs the statements on one raw session; returns the first column of the last result's first row. */
    String runs(String user, String password, String... statements) {
        try (Connection c = session(user, password); Statement s = c.createStatement()) {
            return runs(s, statements);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Runs the statements on an open session; returns the first column of the last result's first row. */
    static String runs(Statement s, String... statements) throws SQLException {
        String last = null;
        for (String sql : statements) {
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    last = rs.next() ? rs.getString(1) : null;
                }
                while (s.getMoreResults() || s.getUpdateCount() != -1) {
                    // drain the procedure's further results
                }
            }
        }
        return last;
    }

    /** What an attack could change: articles, and how many history, draft and decision rows there are. */
    record Snapshot(Result<Record> articles, int events, int drafts, int decisions) {
    }

    Snapshot snapshot() {
        return new Snapshot(root.select(ARTICLE.fields()).from(ARTICLE).orderBy(ARTICLE.ID).fetch(), root.fetchCount(LEASE_EVENT),
                root.fetchCount(REVIEW_DRAFT), root.fetchCount(DECISION));
    }

    void unchangedSince(Snapshot before, String what) {
        Snapshot after = snapshot();
        assertThat(after.articles()).as(what + " changed articles").isEqualTo(before.articles());
        assertThat(after.events()).as(what + " changed history").isEqualTo(before.events());
        assertThat(after.drafts()).as(what + " changed drafts").isEqualTo(before.drafts());
        assertThat(after.decisions()).as(what + " changed decisions").isEqualTo(before.decisions());
    }

    /** An attempt the server must refuse; it must change nothing, and say why in words. Returns the words. */
    String refused(String what, Runnable attempt) {
        Snapshot before = snapshot();
        Throwable failure = null;
        try {
            attempt.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).as(what + " must be refused").isNotNull();
        String reason = failure instanceof OperationRefusedException ? failure.getMessage() : rootMessage(failure);
        if (!(failure instanceof OperationRefusedException)) {
            // a refusal by one of the operations comes as OperationRefusedException; anything else must be the server's own
            // (a check constraint: MariaDB says "CONSTRAINT `ck_…` failed", MySQL "Check constraint 'ck_…' is violated")
            assertThat(reason).as(what).containsAnyOf("Copydesk:", "denied", "You ", "you ", "Only ", "only ", "There is no",
                    "CONSTRAINT", "Check constraint", "foreign key constraint", "locked", "Locked");
        }
        assertThat(reason).as(what + ": no Java in the words").doesNotContain("Exception", "java.");
        unchangedSince(before, what);
        attempts.add(what + " -> refused: " + reason);
        return reason;
    }

    /** An attempt that goes through but must change nothing that matters (checked by the caller). */
    void noEffect(String what, String result) {
        attempts.add(what + " -> no effect: " + result);
    }

    /** Something the attack suite saw that is neither (a bound measured, a session ended). */
    void saw(String what) {
        attempts.add(what);
    }

    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getMessage();
    }

    void log(Logger log, String who) {
        log.info("Attacks by {} on their own accounts ({}):\n  {}", who, attempts.size(), String.join("\n  ", attempts));
    }
}
