package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.groups.Tuple;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every recorded outcome writes one feed event in the decision's transaction; the feed's cursor. */
@ExtendWith(DatabaseExtension.class)
class OutcomeFeedTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private final OutcomeFeed feed;

    OutcomeFeedTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.feed = session.outcomeFeed();
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        for (String editor : List.of("ann", "bob", "cat", "dan")) {
            n.addEditor(editor, editor, Role.EDITOR, 5, List.of("news"));
        }
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of("news"));
    }

    private DecisionOutcome decide(HeldArticle a, UUID request, Verdict verdict, String notes) {
        return session.decisions().submit(new DecisionRequest(request, a.id(), a.lease(), verdict, notes));
    }

    @Test
    void eachDecisionWritesOneEventWithWhatItDecided() {
        List<Long> ids = Fixtures.articles(dsl, "news", 4, 3, -60);
        List<HeldArticle> held = session.queue().claim("ann").articles();
        UUID approval = UUID.randomUUID();

        decide(held.get(0), approval, Verdict.APPROVE, "");
        decide(held.get(0), approval, Verdict.APPROVE, ""); // the retried submit after a lost reply
        decide(held.get(1), UUID.randomUUID(), Verdict.REJECT, "Duplicate");
        decide(held.get(2), UUID.randomUUID(), Verdict.SEND_BACK, "Check the quotes");
        decide(held.get(3), UUID.randomUUID(), Verdict.UNREVIEWABLE, "Garbled text");

        List<OutcomeEvent> events = feed.since(0, 100);
        assertThat(events).extracting(OutcomeEvent::outcome)
                .containsExactly("approved", "rejected", "changes_requested", "unreviewable");
        OutcomeEvent approved = events.get(0);
        String external = dsl.fetchValue(ARTICLE.EXTERNAL_ID, ARTICLE.ID.eq(ids.get(0)));
        assertThat(approved.idempotencyKey()).isEqualTo(approval.toString());
        assertThat(approved.articleId()).isEqualTo(ids.get(0));
        assertThat(approved.externalId()).isEqualTo(external);
        assertThat(approved.desk()).isEqualTo("news");
        assertThat(approved.editor()).isEqualTo("ann");
        assertThat(approved.verdict()).isEqualTo("approve");
        assertThat(approved.articleStatus()).isEqualTo("approved");
        assertThat(approved.leaseToken()).isEqualTo(held.get(0).lease().token());
        assertThat(approved.decidedAt()).isNotNull();
        OutcomeEvent sentBack = events.get(2);
        assertThat(sentBack.notes()).isEqualTo("Check the quotes");
        assertThat(sentBack.articleStatus()).as("waits for the writer's revision").isEqualTo("awaiting_writer");
        assertThat(sentBack.sendBacks()).isEqualTo(1);
        assertThat(sentBack.returnsAt()).as("no timer").isNull();
        assertThat(events.get(3).articleStatus()).isEqualTo("quarantined");
    }

    @Test
    void aDecisionThatIsNotRecordedWritesNoEvent() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        session.supervision().forceRelease(held.id(), "sue", "taking it back");

        assertThat(decide(held, UUID.randomUUID(), Verdict.APPROVE, "")).isInstanceOf(DecisionOutcome.Lost.class);
        assertThat(decide(held, UUID.randomUUID(), Verdict.REJECT, " ")).isInstanceOf(DecisionOutcome.Refused.class);
        assertThat(feed.since(0, 100)).isEmpty();
    }

    @Test
    void aSendBackPastTheLimitSaysQuarantinedAndARequeueSaysSo() {
        dsl.update(DESK).set(DESK.MAX_SEND_BACKS, 0).where(DESK.ID.eq("news")).execute();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(session.queue().claim("ann").articles().get(0), UUID.randomUUID(), Verdict.SEND_BACK, "Wrong facts");

        session.quarantine().requeue(id, "sue", null, null, "facts corrected by the desk");

        List<OutcomeEvent> events = feed.since(0, 100);
        assertThat(events).extracting(OutcomeEvent::outcome, OutcomeEvent::articleStatus, OutcomeEvent::editor)
                .containsExactly(Tuple.tuple("changes_requested", "quarantined", "ann"),
                        Tuple.tuple("requeued", "queued", "sue"));
        assertThat(events.get(1).verdict()).isNull();
        assertThat(events.get(1).leaseToken()).isNull();
        assertThat(events.get(1).notes()).isEqualTo("facts corrected by the desk");
        assertThat(events.get(1).idempotencyKey()).hasSize(36).isNotEqualTo(events.get(0).idempotencyKey());
    }

    @Test
    void readingFromACursorGivesTheSameEventsAndCursorsOnlyGrow() {
        Fixtures.articles(dsl, "news", 5, 3, -60);
        for (HeldArticle a : session.queue().claim("ann").articles()) {
            decide(a, UUID.randomUUID(), Verdict.APPROVE, "");
        }
        List<OutcomeEvent> all = feed.since(0, 100);
        assertThat(all).hasSize(5);
        assertThat(all).extracting(OutcomeEvent::cursor).isSorted().doesNotHaveDuplicates();

        long middle = all.get(1).cursor();
        assertThat(feed.since(middle, 100)).isEqualTo(all.subList(2, 5));
        assertThat(feed.since(middle, 100)).isEqualTo(feed.since(middle, 100));
        assertThat(feed.since(middle, 2)).isEqualTo(all.subList(2, 4));
        assertThat(feed.since(all.get(4).cursor(), 100)).isEmpty();
    }

    /**
     * Deterministic form of the commit-order rule: an outcome whose transaction is still open holds
     * back a later decision's outcome, so a reader never sees the later cursor first.
     */
    @Test
    void aLaterOutcomeWaitsUntilAnEarlierOneCommitsSoNoReaderSeesItFirst() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        HeldArticle later = session.queue().claim("ann").articles().get(1);
        try (Connection early = db.database().dataSource().getConnection();
             Statement s = early.createStatement()) {
            early.setAutoCommit(false);
            s.execute("call record_outcome('" + UUID.randomUUID() + "', 'approved', " + ids.get(0)
                    + ", 'ann', 'approve', '', 1, null, utc_timestamp(6))");
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<DecisionOutcome> decided = pool.submit(() -> decide(later, UUID.randomUUID(), Verdict.APPROVE, ""));
                Thread.sleep(1_000);
                assertThat(decided).as("the later decision waits for the earlier outcome's commit").isNotDone();
                assertThat(feed.since(0, 10)).isEmpty();
                early.commit();
                assertThat(decided.get()).isInstanceOf(DecisionOutcome.Recorded.class);
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(feed.since(0, 10)).extracting(OutcomeEvent::articleId).containsExactly(ids.get(0), ids.get(1));
    }

    /**
     * Four editors decide at once while a reader follows the feed, keeping only its last cursor:
     * it must see every event. (The race it guards against is narrow, so this run rarely catches a
     * regression by itself; the deterministic check is the test above, which fails without the lock.)
     */
    @Test
    void aReaderFollowingTheFeedMissesNothingWhileEditorsDecideAtOnce() throws Exception {
        Fixtures.articles(dsl, "news", 80, 3, -60);
        Set<Long> seen = Collections.newSetFromMap(new ConcurrentHashMap<>());
        AtomicBoolean deciding = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            Future<?> reader = pool.submit(() -> {
                long cursor = 0;
                while (true) {
                    boolean last = !deciding.get();
                    for (OutcomeEvent e : feed.since(cursor, 7)) {
                        seen.add(e.cursor());
                        cursor = e.cursor();
                    }
                    if (last && feed.since(cursor, 1).isEmpty()) {
                        return null;
                    }
                }
            });
            List<Future<?>> editors = new ArrayList<>();
            for (String editor : List.of("ann", "bob", "cat", "dan")) {
                editors.add(pool.submit(() -> {
                    for (int round = 0; round < 4; round++) {
                        for (HeldArticle a : session.queue().claim(editor).articles()) {
                            decide(a, UUID.randomUUID(), Verdict.APPROVE, "");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : editors) {
                f.get();
            }
            deciding.set(false);
            reader.get();
        } finally {
            pool.shutdownNow();
        }
        Set<Long> written = new TreeSet<>(dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).fetch(OUTCOME_EVENT.ID));
        assertThat(written).hasSize(80);
        assertThat(new TreeSet<>(seen)).isEqualTo(written);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.approved))).isEqualTo(80);
    }
}
