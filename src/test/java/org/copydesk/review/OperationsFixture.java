package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.RowKey;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The newsroom the operations' contract suites work in, and short ways to read what the operations
 * did. A suite extends it: each case starts in an empty newsroom, and after each case every action
 * in the history must be one {@link HistoryAction} names. The test database's account is the
 * schema's owner, an administrator: it calls each operation for the editor it names
 * ({@code p_as}), as the command line on the embedded server does.
 *
 * <p>Desks: news (30-minute leases, at most 4 hours held), sport (20 minutes, 4 hours).
 * People: ann (editor, capacity 5, news and sport), bob (editor, capacity 5, news and sport),
 * cat (editor, capacity 2, sport only), sue (supervisor, every desk).
 */
@ExtendWith(DatabaseExtension.class)
abstract class OperationsFixture {

    static final Duration NEWS_LEASE = Duration.ofMinutes(30);
    static final Duration SPORT_LEASE = Duration.ofMinutes(20);

    final TestDatabase db;
    final DSLContext dsl;
    final DatabaseOperations operations;
    final ArticleLeases leases;

    OperationsFixture(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.operations = DatabaseOperations.withDefaultRetries(dsl);
        this.leases = new ArticleLeases(dsl);
    }

    @AfterEach
    void everyHistoryRowIsAnActionThisVersionKnows() {
        dsl.selectDistinct(LEASE_EVENT.ACTION).from(LEASE_EVENT).fetch(LEASE_EVENT.ACTION).forEach(HistoryAction::of);
    }

    /** An empty newsroom with the desks and people above. */
    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl, operations);
        n.addDesk("news", "News", NEWS_LEASE);
        n.addDesk("sport", "Sport", SPORT_LEASE);
        n.addEditor("ann", "Ann Kowalski", Role.EDITOR, 5, List.of("news", "sport"));
        n.addEditor("bob", "Bob Okafor", Role.EDITOR, 5, List.of("news", "sport"));
        n.addEditor("cat", "Cat Moreau", Role.EDITOR, 2, List.of("sport"));
        n.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport"));
    }

    ReviewProcedures procedures(ClaimStrategyKind strategy) {
        return new ReviewProcedures(operations, strategy);
    }

    /** Every editor's claims with the default strategy. */
    ReviewProcedures procedures() {
        return procedures(ClaimStrategyKind.SKIP_LOCKED);
    }

    ArticleRecord article(long id) {
        return dsl.fetchOne(ARTICLE, ARTICLE.ID.eq(id));
    }

    /** The article's history, oldest first. */
    List<LeaseEventRecord> history(long articleId) {
        return dsl.selectFrom(LEASE_EVENT).where(LEASE_EVENT.ROW_KEY.eq(Long.toString(articleId)))
                .orderBy(LEASE_EVENT.ID).fetch();
    }

    LocalDateTime serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
    }

    static long id(Lease lease) {
        return ArticleLeases.articleId(lease);
    }

    static List<Long> ids(ReviewProcedures.Claimed claimed) {
        return claimed.held().stream().map(HeldArticle::id).toList();
    }

    /** The same article under another token: a lease that is not, or no longer, the holder's. */
    static Lease withToken(Lease lease, long token) {
        return new Lease(lease.key(), lease.owner(), token, lease.expiresAt(), lease.serverTime());
    }

    /** The same lease presented by someone else. */
    static Lease heldBy(Lease lease, String owner) {
        return new Lease(RowKey.of(id(lease)), owner, lease.token(), lease.expiresAt(), lease.serverTime());
    }
}
