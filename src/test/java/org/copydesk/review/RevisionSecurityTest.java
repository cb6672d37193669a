package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
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

/**
 * Revisions are written only by the database's import operation (V9): an editor, on their own
 * account with raw SQL, can neither write revisions nor change an article's revision numbers, nor
 * take a newer revision under someone else's lease. Each attempt is refused and changes nothing.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RevisionSecurityTest {

    private final TestDatabase db;
    private final DSLContext root;
    private long articleId;

    RevisionSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("rev_ann", "Ann", Role.EDITOR, 2, List.of("news"));
        n.addEditor("rev_bob", "Bob", Role.EDITOR, 2, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount("rev_ann", "ann-secret-1".toCharArray());
        accounts.createAccount("rev_bob", "bob-secret-1".toCharArray());
    }

    @AfterAll
    void close() {
        AccountAdministration accounts = new AccountAdministration(root);
        List.of("rev_ann", "rev_bob").forEach(accounts::dropAccount);
    }

    @BeforeEach
    void article() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        root.deleteFrom(DECISION).execute();
        Fixtures.clear(root);
        articleId = Fixtures.articles(root, "news", 1, 3, -60).get(0);
    }

    private void annRuns(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.endpoint().accountUrl(db.name()), "rev_ann", "ann-secret-1");
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private record Snapshot(Result<Record> articles, Result<Record> revisions) {
    }

    private Snapshot snapshot() {
        return new Snapshot(root.select(ARTICLE.fields()).from(ARTICLE).orderBy(ARTICLE.ID).fetch(),
                root.select(ARTICLE_REVISION.fields()).from(ARTICLE_REVISION)
                        .orderBy(ARTICLE_REVISION.ARTICLE_ID, ARTICLE_REVISION.REVISION).fetch());
    }

    private void refused(String sql) {
        Snapshot before = snapshot();
        assertThatThrownBy(() -> annRuns(sql)).as(sql).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("denied", "Copydesk:"));
        Snapshot after = snapshot();
        assertThat(after.articles()).as(sql + " changed articles").isEqualTo(before.articles());
        assertThat(after.revisions()).as(sql + " changed revisions").isEqualTo(before.revisions());
    }

    @Test
    void theImportedOriginalIsRevisionOneAndAnEditorCanReadRevisions() throws SQLException {
        assertThat(root.fetchValue(ARTICLE_REVISION.BODY, ARTICLE_REVISION.ARTICLE_ID.eq(articleId)
                .and(ARTICLE_REVISION.REVISION.eq(1)))).isEqualTo("Body 0");
        annRuns("select count(*) from article_revision");
    }

    @Test
    void anEditorCannotWriteRevisionsOrChangeRevisionNumbers() {
        refused("insert into article_revision (article_id, revision, title, body) values (" + articleId + ", 2, 'Mine', 'My text')");
        refused("update article_revision set body = 'rewritten' where article_id = " + articleId);
        refused("delete from article_revision where article_id = " + articleId);
        refused("update article set revision = 7 where id = " + articleId);
        refused("update article set held_revision = 7 where id = " + articleId);
        refused("call import_articles('rev_ann', 'x', 'x', '[{\"line\":1,\"external_id\":\"" + externalId()
                + "\",\"desk\":\"news\",\"title\":\"Mine\",\"body\":\"My text\"}]', '[]', 1)");
    }

    @Test
    void anEditorCannotTakeANewerRevisionUnderSomeoneElsesLeaseNorActForThem() {
        ReviewSession bob = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        HeldArticle held = bob.queue().claim("rev_bob").articles().get(0);
        // a newer revision arrives while Bob reads (as the import would write it)
        root.update(ARTICLE).set(ARTICLE.REVISION, 2).set(ARTICLE.BODY, "v2").where(ARTICLE.ID.eq(articleId)).execute();
        assertThat(root.fetchValue(ARTICLE.HELD_REVISION, ARTICLE.ID.eq(articleId))).isEqualTo(1);
        refused("call take_revision('rev_bob', " + articleId + ", " + held.lease().token() + ")");
        Snapshot before = snapshot();
        try {
            annRuns("call take_revision(NULL, " + articleId + ", " + held.lease().token() + ")");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        assertThat(snapshot().articles()).as("not her lease: nothing taken").isEqualTo(before.articles());
        assertThat(root.fetchValue(ARTICLE.HELD_REVISION, ARTICLE.ID.eq(articleId))).isEqualTo(1);
    }

    private String externalId() {
        return root.fetchValue(ARTICLE.EXTERNAL_ID, ARTICLE.ID.eq(articleId));
    }
}
