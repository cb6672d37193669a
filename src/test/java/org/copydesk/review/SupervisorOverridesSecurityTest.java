package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attacks on the supervisor's overrides from people's own database accounts, with raw SQL as a
 * SQL client would type it: an editor can neither call the overrides (hold, move to the front, let
 * again, reassign) nor write what they leave on an article (kept_from, held_at) or their history,
 * nor claim an article kept from them or held, whatever their session sets; a supervisor acts only
 * as themselves. Every refused attempt changes nothing.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SupervisorOverridesSecurityTest {

    private final TestDatabase db;
    private final DSLContext root;
    private Database sueDb;
    private ReviewSession sue;
    private List<Long> ids;

    SupervisorOverridesSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ovr_ann", "Ann", Role.EDITOR, 3, List.of("news"));
        n.addEditor("ovr_bob", "Bob", Role.EDITOR, 3, List.of("news"));
        n.addEditor("ovr_sue", "Sue", Role.SUPERVISOR, 5, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount("ovr_ann", "ann-secret-2".toCharArray());
        accounts.createAccount("ovr_sue", "sue-secret-2".toCharArray());
        sueDb = Database.open(url(), "ovr_sue", "sue-secret-2".toCharArray(), null, DataSources.PoolSize.of(2),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
        sue = new ReviewSession(sueDb, ReviewSession.Options.defaults());
    }

    @AfterAll
    void close() {
        sueDb.close();
        AccountAdministration accounts = new AccountAdministration(root);
        List.of("ovr_ann", "ovr_sue").forEach(accounts::dropAccount);
    }

    /** Three waiting articles; the first kept from Ann (she held it, Sue took it back), the second held by Sue. */
    @BeforeEach
    void articles() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        Fixtures.clear(root);
        ids = Fixtures.articles(root, "news", 3, 3, -60);
        ReviewSession admin = new ReviewSession(db.database(), ReviewSession.Options.defaults()); // claims for Ann
        admin.queue().claim("ovr_ann");
        admin.queue().held("ovr_ann").stream().filter(h -> h.id() != ids.get(0)).forEach(h -> admin.queue().release(h));
        root.update(ARTICLE).set(ARTICLE.PASSED_BY, (String) null).execute();
        sue.supervision().forceRelease(ids.get(0), "ovr_sue", "Culture desk needs it");
        sue.queueOverrides().hold(ids.get(1), "ovr_sue", "Legal reads it first");
    }

    private String url() {
        return db.endpoint().accountUrl(db.name());
    }

    /** Runs the statements on one raw session of the account; the first column of the last result's first row. */
    private String runs(String user, String password, String... statements) {
        try (Connection c = DriverManager.getConnection(url(), user, password); Statement s = c.createStatement()) {
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
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private String annRuns(String... statements) {
        return runs("ovr_ann", "ann-secret-2", statements);
    }

    private record Snapshot(Result<Record> articles, int events, int drafts) {
    }

    private Snapshot snapshot() {
        return new Snapshot(root.select(ARTICLE.fields()).from(ARTICLE).orderBy(ARTICLE.ID).fetch(), root.fetchCount(LEASE_EVENT),
                root.fetchCount(REVIEW_DRAFT));
    }

    /** The attempt must fail, say why, and change no article, history row or draft. */
    private void refused(String what, Runnable attempt) {
        Snapshot before = snapshot();
        Throwable failure = null;
        try {
            attempt.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        assertThat(failure).as(what + " must be refused").isNotNull();
        assertThat(failure.getMessage()).as(what).containsAnyOf("denied", "Copydesk:", "only");
        Snapshot after = snapshot();
        assertThat(after.articles()).as(what + " changed articles").isEqualTo(before.articles());
        assertThat(after.events()).as(what + " changed history").isEqualTo(before.events());
        assertThat(after.drafts()).as(what + " changed drafts").isEqualTo(before.drafts());
    }

    @Test
    void anEditorCanNeitherCallTheOverridesNorWriteWhatTheyLeave() {
        long kept = ids.get(0);
        long held = ids.get(1);
        refused("let herself have it again", () -> annRuns("CALL let_editor_again(NULL, " + kept + ", 'mine')"));
        refused("release the hold", () -> annRuns("CALL release_hold(NULL, " + held + ", NULL)"));
        refused("hold an article", () -> annRuns("CALL hold_article(NULL, " + ids.get(2) + ", 'mine')"));
        refused("move one to the front", () -> annRuns("CALL move_to_front(NULL, " + ids.get(2) + ", NULL)"));
        refused("give herself the kept one", () -> annRuns("CALL reassign_article(NULL, " + kept + ", 'ovr_ann', 1, 1, NULL)"));
        refused("clear kept_from herself", () -> annRuns("UPDATE article SET kept_from = NULL WHERE id = " + kept));
        refused("clear a hold herself", () -> annRuns("UPDATE article SET held_at = NULL, held_by = NULL WHERE id = " + held));
        refused("forge a let_again in the history", () -> annRuns("INSERT INTO lease_event (resource, row_key, action, actor) "
                + "VALUES ('article', '" + kept + "', 'let_again', 'ovr_sue')"));
        refused("act as the supervisor", () -> annRuns("CALL let_editor_again('ovr_sue', " + kept + ", NULL)"));
        refused("claim as Bob, who may have it", () -> annRuns("CALL claim_articles('ovr_bob', NULL, NULL, NULL, NULL)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SKIP_LOCKED", "BLOCKING", "OPTIMISTIC"})
    void anEditorsClaimPassesOverWhatIsKeptFromHerAndWhatIsHeldWhateverHerSessionSets(String strategy) {
        annRuns("SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 86400", "SET time_zone = '+13:00'",
                "SET SESSION sql_mode = ''", "SET foreign_key_checks = 0",
                "CALL claim_articles(NULL, NULL, NULL, NULL, '" + strategy + "')");

        assertThat(root.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("ovr_ann")).fetch(ARTICLE.ID))
                .containsExactly(ids.get(2));
        assertThat(root.fetchValue(ARTICLE.KEPT_FROM, ARTICLE.ID.eq(ids.get(0)))).isEqualTo("ovr_ann");
        assertThat(root.fetchValue(ARTICLE.HELD_BY, ARTICLE.ID.eq(ids.get(1)))).isEqualTo("ovr_sue");
    }

    @Test
    void aSupervisorActsAsHerselfAndTheHistoryNamesHer() {
        refused("hold in an editor's name", () -> runs("ovr_sue", "sue-secret-2",
                "CALL hold_article('ovr_ann', " + ids.get(2) + ", 'in her name')"));
        runs("ovr_sue", "sue-secret-2", "SET @copydesk_actor = 'ovr_ann'", "CALL let_editor_again(NULL, " + ids.get(0) + ", 'ok')");
        assertThat(root.select(LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER).from(LEASE_EVENT).where(LEASE_EVENT.ACTION.eq("let_again"))
                .fetchOne().intoList()).containsExactly("ovr_sue", "ovr_ann");
    }
}
