package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.review.imports.ImportReportText;
import org.copydesk.review.imports.RevisionRow;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Revisions come in: what a re-import with a changed text does, per article state, on the real database. */
@ExtendWith(DatabaseExtension.class)
class RevisionImportTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ArticleImporter importer;

    RevisionImportTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.importer = new ArticleImporter(dsl, Clock.systemUTC());
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        n.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
    }

    private ImportReport importRow(ArticleImporter with, String title, String body) {
        String line = "{\"external_id\": \"CMS-7\", \"desk\": \"news\", \"title\": \"" + title + "\", \"body\": \"" + body
                + "\", \"byline\": \"Kim Lee\"}\n";
        ImportReport r = with.importStream(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "cms.ndjson", -1,
                "sue", ImportListener.NONE);
        assertThat(r.imported() + r.alreadyPresent() + r.revisionRows().size() + r.quarantined())
                .as("every row accounted for once").isEqualTo(r.rowsRead());
        return r;
    }

    private ImportReport importRow(String title, String body) {
        return importRow(importer, title, body);
    }

    private ArticleRecord article() {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.EXTERNAL_ID.eq("CMS-7")).fetchOne();
    }

    private List<String> revisionBodies() {
        return dsl.select(ARTICLE_REVISION.BODY).from(ARTICLE_REVISION).where(ARTICLE_REVISION.ARTICLE_ID.eq(article().getId()))
                .orderBy(ARTICLE_REVISION.REVISION).fetch(ARTICLE_REVISION.BODY);
    }

    private DecisionOutcome decide(HeldArticle held, Verdict verdict, String notes) {
        return session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), verdict, notes));
    }

    @Test
    void aChangedTextOfAWaitingArticleIsANewRevisionEditorsSeeAndTheOriginalIsKept() {
        assertThat(importRow("Council votes", "First text").imported()).isEqualTo(1);
        ImportReport again = importRow("Council votes", "First text");
        assertThat(again.alreadyPresent()).as("identical content").isEqualTo(1);
        assertThat(again.revisionRows()).isEmpty();

        ImportReport revised = importRow("Council votes 7-2", "Second text");

        assertThat(revised.alreadyPresent()).isZero();
        assertThat(revised.revisionRows()).singleElement().satisfies(row -> {
            assertThat(row.kind()).isEqualTo(RevisionRow.Kind.REVISED);
            assertThat(row.revision()).isEqualTo(2);
            assertThat(row.line()).isEqualTo(1);
        });
        assertThat(ImportReportText.of(revised)).contains("line 1: CMS-7", "revision 2", "editors see it now");
        ArticleRecord a = article();
        assertThat(a.getRevision()).isEqualTo(2);
        assertThat(a.getTitle()).isEqualTo("Council votes 7-2");
        assertThat(a.getBody()).isEqualTo("Second text");
        assertThat(revisionBodies()).containsExactly("First text", "Second text");
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ROW_KEY.eq(String.valueOf(a.getId()))
                .and(LEASE_EVENT.ACTION.eq("revision")))).as("history").isEqualTo(1);
        assertThat(session.queue().claim("ann").articles()).singleElement()
                .extracting(HeldArticle::title).isEqualTo("Council votes 7-2");
    }

    @Test
    void aDecisionOnTheRevisionTheEditorReadIsRefusedWhenANewerOneArrivedAndTheNotesStayAsADraft() {
        importRow("Council votes", "First text");
        HeldArticle held = session.queue().claim("ann").articles().get(0);

        ImportReport revised = importRow("Council votes", "Second text");
        assertThat(revised.revisionRows()).singleElement().extracting(RevisionRow::kind)
                .isEqualTo(RevisionRow.Kind.REVISED_HELD);

        assertThat(session.decisions().newerRevision(held.lease())).as("the holder can be told").contains(2);
        DecisionOutcome refused = decide(held, Verdict.REJECT, "Para 2 is wrong");
        assertThat(refused).isEqualTo(new DecisionOutcome.Refused(DecisionRefusal.NEWER_REVISION));
        assertThat(ReviewDecisions.NEWER_REVISION).contains("newer version", "kept as a draft", "reload");
        assertThat(session.drafts().load(held.id(), "ann")).get().extracting(Drafts.Draft::notes).isEqualTo("Para 2 is wrong");
        assertThat(dsl.fetchCount(DECISION)).isZero();
        assertThat(article().getStatus()).isEqualTo(ArticleStatus.queued);
        assertThat(article().getLockedBy()).as("ann still holds it").isEqualTo("ann");

        assertThat(session.decisions().takeNewestRevision(held.lease())).get().satisfies(r -> {
            assertThat(r.revision()).isEqualTo(2);
            assertThat(r.body()).isEqualTo("Second text");
        });
        assertThat(session.decisions().newerRevision(held.lease())).isEmpty();
        assertThat(decide(held, Verdict.APPROVE, "")).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(dsl.fetchValue(DECISION.REVISION, DECISION.ARTICLE_ID.eq(held.id()))).as("decided on revision 2").isEqualTo(2);
        assertThat(dsl.fetchValue(OUTCOME_EVENT.OUTCOME, OUTCOME_EVENT.ARTICLE_ID.eq(held.id()))).isEqualTo("approved");
    }

    @Test
    void anArticleNeverSentBackHasNoReturnedView() {
        importRow("Council votes", "First text");
        importRow("Council votes", "Second text");
        assertThat(session.returnedArticles().of(article().getId())).isEmpty();
    }

    @Test
    void aDecisionWithoutANewerRevisionRecordsTheRevisionItWasMadeOn() {
        importRow("Council votes", "First text");
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        assertThat(decide(held, Verdict.APPROVE, "")).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(dsl.fetchValue(DECISION.REVISION, DECISION.ARTICLE_ID.eq(held.id()))).isEqualTo(1);
    }

    @Test
    void anotherEditorsLeaseCannotTakeTheNewRevision() {
        importRow("Council votes", "First text");
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        session.supervision().forceRelease(held.id(), "sue", "Legal wants it");
        importRow("Council votes", "Second text");
        assertThat(session.decisions().takeNewestRevision(held.lease())).as("lease lost").isEmpty();
    }

    @Test
    void aNewTextOfADecidedArticleIsReportedAsAlreadyDecidedUnlessTheImportReopensIt() {
        importRow("Council votes", "First text");
        decide(session.queue().claim("ann").articles().get(0), Verdict.APPROVE, "");

        ImportReport decided = importRow("Council votes", "Second text");
        assertThat(decided.revisionRows()).singleElement().satisfies(row -> {
            assertThat(row.kind()).isEqualTo(RevisionRow.Kind.ALREADY_DECIDED);
            assertThat(row.revision()).isEqualTo(1);
        });
        assertThat(decided.alreadyDecided()).isEqualTo(1);
        assertThat(ImportReportText.of(decided)).contains("already decided", "--reopen");
        assertThat(article().getStatus()).isEqualTo(ArticleStatus.approved);
        assertThat(article().getBody()).isEqualTo("First text");
        assertThat(revisionBodies()).containsExactly("First text");

        ImportReport reopened = importRow(importer.reopeningDecided(), "Council votes", "Second text");
        assertThat(reopened.revisionRows()).singleElement().extracting(RevisionRow::kind).isEqualTo(RevisionRow.Kind.REOPENED);
        ArticleRecord a = article();
        assertThat(a.getStatus()).isEqualTo(ArticleStatus.queued);
        assertThat(a.getQueueLane()).as("returning work first").isZero();
        assertThat(a.getDecidedBy()).isNull();
        assertThat(a.getRevision()).isEqualTo(2);
        assertThat(revisionBodies()).containsExactly("First text", "Second text");
        assertThat(dsl.select(OUTCOME_EVENT.OUTCOME).from(OUTCOME_EVENT).where(OUTCOME_EVENT.ARTICLE_ID.eq(a.getId()))
                .orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.OUTCOME)).containsExactly("approved", "reopened");
        assertThat(session.queue().claim("ann").articles()).singleElement().extracting(HeldArticle::id).isEqualTo(a.getId());
    }

    @Test
    void aSentBackArticleWaitsForItsWritersRevisionWhichReturnsItAtOnceAheadOfFreshWork() {
        importRow("Council votes", "First text");
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        DecisionOutcome.Recorded sentBack = (DecisionOutcome.Recorded) decide(held, Verdict.SEND_BACK, "Check the quotes");
        assertThat(sentBack.resultingStatus()).isEqualTo("awaiting_writer");
        assertThat(sentBack.returnsAt()).as("no timer").isNull();
        assertThat(article().getStatus()).isEqualTo(ArticleStatus.awaiting_writer);
        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.nowPlus(Duration.ofDays(-30)))
                .where(ARTICLE.ID.eq(held.id())).execute();
        assertThat(session.queue().claim("ann").articles()).as("not claimable however long it waits").isEmpty();
        assertThat(importRow("Council votes", "First text").alreadyPresent()).as("the same text does not return it").isEqualTo(1);
        assertThat(article().getStatus()).isEqualTo(ArticleStatus.awaiting_writer);

        // fresh work of the same priority arrives first; the writer's revision still goes ahead of it
        Fixtures.articles(dsl, "news", 2, 3, -600);
        ImportReport revised = importRow("Council votes", "Second text, quotes checked");
        assertThat(revised.revisionRows()).singleElement().satisfies(row -> {
            assertThat(row.kind()).isEqualTo(RevisionRow.Kind.RETURNED);
            assertThat(row.revision()).isEqualTo(2);
        });
        ArticleRecord a = article();
        assertThat(a.getStatus()).isEqualTo(ArticleStatus.queued);
        assertThat(a.getQueueLane()).isZero();
        assertThat(a.getDecisionNote()).as("the notes that asked for the changes stay").isEqualTo("Check the quotes");
        ReturnedArticles.Returned returned = session.returnedArticles().of(held.id()).orElseThrow();
        assertThat(returned.sentBackRevision()).isEqualTo(1);
        assertThat(returned.currentRevision()).isEqualTo(2);
        assertThat(returned.notes()).isEqualTo("Check the quotes");
        assertThat(returned.sentBackBy()).isEqualTo("ann");
        assertThat(returned.bodyDiff()).containsExactly(new WordDiff.Segment(WordDiff.Change.DELETED, "First"),
                new WordDiff.Segment(WordDiff.Change.INSERTED, "Second"), new WordDiff.Segment(WordDiff.Change.SAME, " text"),
                new WordDiff.Segment(WordDiff.Change.INSERTED, ", quotes checked"));
        assertThat(WordDiff.newText(returned.bodyDiff())).isEqualTo("Second text, quotes checked");
        assertThat(WordDiff.oldText(returned.bodyDiff())).isEqualTo("First text");
        assertThat(returned.titleDiff()).containsExactly(new WordDiff.Segment(WordDiff.Change.SAME, "Council votes"));
        assertThat(session.queue().claim("ann").articles()).first().satisfies(first -> {
            assertThat(first.id()).isEqualTo(held.id());
            assertThat(first.title()).isEqualTo("Council votes");
        });
    }

    @Test
    void supervisorsSeePerDeskWhatWaitsForWritersSinceWhenAndWhatIsOverdue() {
        importRow("Council votes", "First text");
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        decide(held, Verdict.SEND_BACK, "Check the quotes");
        WaitingForWriters waiting = session.waitingForWriters();

        assertThat(waiting.perDesk(Duration.ofDays(3))).singleElement().satisfies(d -> {
            assertThat(d.desk()).isEqualTo("news");
            assertThat(d.waiting()).isEqualTo(1);
            assertThat(d.oldestSince()).isNotNull();
            assertThat(d.overdue()).isZero();
        });
        assertThat(waiting.overdue(Duration.ofDays(3), 10)).isEmpty();

        // four days pass on the server's clock for this send-back
        dsl.update(ARTICLE).set(ARTICLE.DECIDED_AT, ServerClock.nowPlus(Duration.ofDays(-4)))
                .where(ARTICLE.ID.eq(held.id())).execute();
        assertThat(waiting.perDesk(Duration.ofDays(3))).singleElement().extracting(WaitingForWriters.DeskWait::overdue).isEqualTo(1);
        assertThat(waiting.overdue(Duration.ofDays(3), 10)).singleElement().satisfies(o -> {
            assertThat(o.articleId()).isEqualTo(held.id());
            assertThat(o.externalId()).isEqualTo("CMS-7");
            assertThat(o.sentBackBy()).isEqualTo("ann");
            assertThat(o.notes()).isEqualTo("Check the quotes");
        });
        assertThat(waiting.overdue(Duration.ofDays(5), 10)).as("a longer patience").isEmpty();

        importRow("Council votes", "Second text");
        assertThat(waiting.perDesk(Duration.ofDays(3))).as("the revision came in").isEmpty();
    }
}
