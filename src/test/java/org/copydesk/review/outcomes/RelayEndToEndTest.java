package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.testing.Eventually.await;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.assertj.core.api.Assertions;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.Tables;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReturnedArticles;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.review.WordDiff;
import org.copydesk.review.imports.DropFolder;
import org.copydesk.review.imports.RevisionRow;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay against a stand-in CMS (a real JDK HttpServer) that fails, answers late, drops
 * connections and goes away, with the relay killed in the middle and another one taking over: the
 * CMS ends with every outcome exactly once by idempotency key, in order per article. The relay
 * runs on an integration account of kind relay, which may call the relay's operations only.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RelayEndToEndTest {

    private static final byte[] SECRET = "a-shared-secret-of-the-cms".getBytes(StandardCharsets.UTF_8);
    private static final String RELAY_ACCOUNT = ("rl_" + ProcessHandle.current().pid() + "_e2e");
    private static final String RELAY_PASSWORD = "relay-password-1";

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private Database relayDb;

    RelayEndToEndTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeAll
    void relayAccount() {
        new AccountAdministration(dsl).createIntegrationAccount(RELAY_ACCOUNT, "relay", RELAY_PASSWORD.toCharArray());
        relayDb = Database.open(db.endpoint().accountUrl(db.name()), RELAY_ACCOUNT, RELAY_PASSWORD.toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null);
    }

    @AfterAll
    void dropRelayAccount() {
        relayDb.close();
        new AccountAdministration(dsl).dropIntegrationAccount(RELAY_ACCOUNT);
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.update(Tables.RELAY_LEASE).setNull(Tables.RELAY_LEASE.HOLDER)
                .setNull(Tables.RELAY_LEASE.EXPIRES_AT).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        // sent-back work returns at once, so one article gets several outcomes in a row
        dsl.update(DESK).set(DESK.SEND_BACK_DELAY_SECONDS, 0).set(DESK.MAX_SEND_BACKS, 5).set(DESK.SEND_BACK_WAITS_FOR_WRITER, 0).execute();
        n.addEditor("ann", "Ann", Role.EDITOR, 4, List.of("news"));
        n.addEditor("bob", "Bob", Role.EDITOR, 4, List.of("news"));
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 4, List.of("news"));
    }

    /** Every editor claims and decides once: some articles are sent back once or twice before a final verdict. */
    private int decideOneRound() {
        int decided = 0;
        for (String editor : List.of("ann", "bob")) {
            for (HeldArticle a : session.queue().claim(editor).articles()) {
                int sendBacksWanted = a.id() % 3 == 0 ? (a.id() % 2 == 0 ? 2 : 1) : 0;
                Verdict verdict = a.attempts() < sendBacksWanted ? Verdict.SEND_BACK : a.id() % 4 == 1 ? Verdict.REJECT : Verdict.APPROVE;
                session.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), verdict,
                        verdict == Verdict.APPROVE ? "" : "round notes for " + a.id()));
                decided++;
            }
        }
        return decided;
    }

    private final class Recorder implements WebhookRelay.Listener {
        final List<String> deliveries = new CopyOnWriteArrayList<>();
        final AtomicInteger waits = new AtomicInteger();

        @Override
        public void attempted(OutcomeEvent event, RelayProcedures.Delivery delivery, String answer) {
            deliveries.add(event.cursor() + " " + delivery.code() + " " + answer);
        }

        @Override
        public void waitingForLease(String holder, LocalDateTime until) {
            waits.incrementAndGet();
        }

        @Override
        public void databaseTrouble(String message) {
            deliveries.add("database: " + message);
        }
    }

    private WebhookRelay relay(String instance, RelaySettings settings, Recorder recorder) {
        RelayProcedures procedures = new OutcomeServices(relayDb).relayProcedures();
        return new WebhookRelay(procedures, new WebhookSignature(SECRET), settings, instance, Clock.systemUTC(), recorder);
    }

    private static Thread running(WebhookRelay relay) {
        Thread t = new Thread(() -> {
            try {
                relay.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "relay-under-test");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void everyOutcomeArrivesExactlyOnceByKeyInOrderPerArticleThroughFailuresAndARelayRestart() throws Exception {
        Fixtures.articles(dsl, "news", 16, 3, -60);
        RelayState state = session.relayState();
        try (StandInCms cms = new StandInCms(new WebhookSignature(SECRET), 900, true)) {
            RelaySettings settings = RelaySettings.defaults(cms.url())
                    .withAttempts(100, Duration.ofMillis(50), Duration.ofMillis(400))
                    .withTiming(Duration.ofMillis(500), Duration.ofMillis(50), Duration.ofSeconds(3));
            decideOneRound();

            Recorder first = new Recorder();
            WebhookRelay relay1 = relay("relay-one", settings, first);
            Thread thread1 = running(relay1);
            decideOneRound(); // decisions go on while the relay delivers
            await("the CMS has processed some outcomes", Duration.ofSeconds(60), () -> cms.processedInOrder().size() >= 6);
            relay1.stop(); // dies: the delivery lease is not given back
            thread1.join(10_000);

            cms.goAway();
            Recorder second = new Recorder();
            WebhookRelay relay2 = relay("relay-two", settings, second);
            Thread thread2 = running(relay2);
            while (decideOneRound() > 0) {
                // the rest of the work, sent-back articles included
            }
            Thread.sleep(800); // the new relay finds the receiver away for a while
            cms.comeBack();
            int total = dsl.fetchCount(OUTCOME_EVENT);
            await("every outcome is delivered", Duration.ofSeconds(90), () -> state.counts().delivered() == total);
            relay2.close();
            thread2.join(10_000);

            List<String> keys = dsl.select(OUTCOME_EVENT.IDEMPOTENCY_KEY).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID)
                    .fetch(OUTCOME_EVENT.IDEMPOTENCY_KEY);
            List<StandInCms.Processed> processed = cms.processedInOrder();
            assertThat(total).isGreaterThanOrEqualTo(20);
            assertThat(processed).extracting(StandInCms.Processed::key).containsExactlyInAnyOrderElementsOf(keys);
            Map<Long, List<Long>> perArticle = processed.stream().collect(Collectors.groupingBy(StandInCms.Processed::articleId,
                    Collectors.mapping(StandInCms.Processed::cursor, Collectors.toList())));
            assertThat(perArticle.values()).allSatisfy(cursors -> assertThat(cursors).isSorted());
            assertThat(perArticle.values()).anySatisfy(cursors -> assertThat(cursors).hasSizeGreaterThan(2));
            // the misbehaviour happened, and the relay got through it
            assertThat(cms.failedOnPurpose.get()).isPositive();
            assertThat(cms.answeredLate.get()).isPositive();
            assertThat(cms.dropped.get()).isPositive();
            assertThat(cms.duplicates.get()).as("late and dropped answers make the relay send again").isPositive();
            assertThat(cms.badSignatures.get()).isZero();
            assertThat(second.waits.get()).as("the second relay waited for the dead one's lease").isPositive();
            assertThat(second.deliveries).anyMatch(d -> d.contains("could not reach the receiver"));
            assertThat(state.counts()).isEqualTo(new RelayState.Counts(total, 0, 0));
        }
    }

    /** The stand-in CMS hands a file to the watched folder, as wire services and many CMSs do. */
    private static void drop(Path folder, String name, String... rows) throws IOException {
        Path partial = folder.resolve(name + ".part");
        Files.writeString(partial, "external_id,desk,title,byline,body,priority,available_at\n" + String.join("\n", rows) + "\n");
        Files.move(partial, folder.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static void importDrops(DropFolder folder) {
        folder.runOnce(); // renamed in whole, with no quiet period: taken at the first look
        folder.runOnce();
    }

    @Test
    void theNewsroomsLoopFilesInChangesRequestedARevisionBackADiffSeenAndEveryOutcomeOutOnceInOrder(@TempDir Path drops)
            throws Exception {
        // the whole round: the CMS drops files, an editor sends one back, the writer's revision comes in
        // through the folder, a second editor sees what changed and approves; the relay restarts meanwhile
        dsl.update(DESK).set(DESK.SEND_BACK_WAITS_FOR_WRITER, 1).execute();
        List<DropFolder.Finished> files = new CopyOnWriteArrayList<>();
        // no quiet period: the test writes each file whole before it looks
        DropFolder folder = new DropFolder(drops, session.importer(), "sue", DropFolder.Timing.of(Duration.ofSeconds(1), Duration.ZERO),
                new DropFolder.Listener() {
                    @Override
                    public void finished(DropFolder.Finished file) {
                        files.add(file);
                    }

                    @Override
                    public void waiting(String name, String why) {
                    }
                });
        RelayState state = session.relayState();
        try (StandInCms cms = new StandInCms(new WebhookSignature(SECRET), 900, true)) {
            RelaySettings settings = RelaySettings.defaults(cms.url())
                    .withAttempts(100, Duration.ofMillis(50), Duration.ofMillis(400))
                    .withTiming(Duration.ofMillis(500), Duration.ofMillis(50), Duration.ofSeconds(3));
            drop(drops, "wire-1.csv",
                    "cms-1,news,Tram line opens,Ana Ruiz,\"The new tram line opens on Monday.\",1,",
                    "cms-2,news,Council budget agreed,Ben Ode,\"The council agreed its budget after a long night. One source said it was late.\",1,",
                    "cms-3,news,Fair comes to town,Cy Lam,\"The autumn fair opens on Friday.\",1,");
            importDrops(folder);
            assertThat(files).singleElement().satisfies(f -> assertThat(f.outcome().imported()).isEqualTo(3));

            Recorder first = new Recorder();
            WebhookRelay relay1 = relay("relay-one", settings, first);
            Thread thread1 = running(relay1);
            for (HeldArticle a : session.queue().claim("ann").articles()) {
                Verdict verdict = switch (a.externalId()) {
                    case "cms-1" -> Verdict.APPROVE;
                    case "cms-2" -> Verdict.SEND_BACK;
                    default -> Verdict.REJECT;
                };
                session.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), verdict,
                        verdict == Verdict.SEND_BACK ? "Name the second source." : verdict == Verdict.REJECT ? "Duplicate." : ""));
            }
            await("the CMS has the first outcome", Duration.ofSeconds(60), () -> !cms.processedInOrder().isEmpty());
            relay1.stop(); // dies holding the delivery lease
            thread1.join(10_000);
            Recorder second = new Recorder();
            WebhookRelay relay2 = relay("relay-two", settings, second);
            Thread thread2 = running(relay2);

            // the writer's revision comes back through the folder and goes first in the queue
            drop(drops, "wire-2.csv",
                    "cms-2,news,Council budget agreed,Ben Ode,\"The council agreed its budget after a long night. Finance chief Dee Roe said it was late.\",1,");
            importDrops(folder);
            assertThat(files).hasSize(2);
            assertThat(files.get(1).outcome().revisionRows()).singleElement()
                    .satisfies(r -> assertThat(r.kind()).isEqualTo(RevisionRow.Kind.RETURNED));
            HeldArticle revised = session.queue().claim("bob").articles().get(0);
            assertThat(revised.externalId()).isEqualTo("cms-2");
            ReturnedArticles.Returned seen = session.returnedArticles().of(revised.id()).orElseThrow();
            assertThat(seen.notes()).isEqualTo("Name the second source.");
            assertThat(seen.sentBackBy()).isEqualTo("ann");
            assertThat(seen.bodyDiff()).anySatisfy(d -> {
                assertThat(d.change()).isEqualTo(WordDiff.Change.INSERTED);
                assertThat(d.text()).contains("Dee");
            });
            assertThat(seen.bodyDiff()).anySatisfy(d -> {
                assertThat(d.change()).isEqualTo(WordDiff.Change.DELETED);
                assertThat(d.text()).contains("One");
            });
            session.decisions().submit(new DecisionRequest(UUID.randomUUID(), revised.id(), revised.lease(), Verdict.APPROVE, ""));

            int total = dsl.fetchCount(OUTCOME_EVENT);
            await("every outcome is delivered", Duration.ofSeconds(90), () -> state.counts().delivered() == total);
            relay2.close();
            thread2.join(10_000);
            List<String> keys = dsl.select(OUTCOME_EVENT.IDEMPOTENCY_KEY).from(OUTCOME_EVENT).fetch(OUTCOME_EVENT.IDEMPOTENCY_KEY);
            assertThat(total).isEqualTo(4); // approved, changes requested, rejected, approved
            assertThat(cms.processedInOrder()).extracting(StandInCms.Processed::key).containsExactlyInAnyOrderElementsOf(keys);
            List<String> cms2 = dsl.select(OUTCOME_EVENT.OUTCOME).from(OUTCOME_EVENT).where(OUTCOME_EVENT.ARTICLE_ID.eq(revised.id()))
                    .orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.OUTCOME);
            assertThat(cms2).containsExactly("changes_requested", "approved");
            List<Long> delivered = cms.processedInOrder().stream().filter(p -> p.articleId() == revised.id())
                    .map(StandInCms.Processed::cursor).toList();
            assertThat(delivered).hasSize(2).isSorted();
            assertThat(cms.badSignatures.get()).isZero();
        }
    }

    @Test
    void anOutcomeTheReceiverKeepsRefusingIsMarkedFailedHoldsItsArticleBackAndASupervisorCanRetryIt() throws Exception {
        long article = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        dsl.update(DESK).set(DESK.SEND_BACK_DELAY_SECONDS, 0).set(DESK.SEND_BACK_WAITS_FOR_WRITER, 0).execute();
        HeldArticle held = session.queue().claim("ann").articles().get(0);
        session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), Verdict.SEND_BACK, "Quotes?"));
        HeldArticle again = session.queue().claim("ann").articles().get(0);
        session.decisions().submit(new DecisionRequest(UUID.randomUUID(), again.id(), again.lease(), Verdict.APPROVE, ""));
        List<Long> cursors = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ID);

        try (StandInCms cms = new StandInCms(new WebhookSignature(SECRET), 0, false)) {
            cms.alwaysAnswer(503);
            RelaySettings settings = RelaySettings.defaults(cms.url()).withAttempts(3, Duration.ZERO, Duration.ZERO)
                    .withTiming(Duration.ofSeconds(2), Duration.ofMillis(20), Duration.ofSeconds(5));
            Recorder recorder = new Recorder();
            try (WebhookRelay relay = relay("relay-failing", settings, recorder)) {
                for (int round = 0; round < 6; round++) {
                    relay.runOnce();
                }
                RelayState state = session.relayState();
                assertThat(state.counts()).isEqualTo(new RelayState.Counts(0, 1, 1));
                List<RelayState.Undelivered> undelivered = state.undelivered(10);
                assertThat(undelivered).extracting(RelayState.Undelivered::cursor).containsExactly(cursors.get(0), cursors.get(1));
                assertThat(undelivered.get(0).delivery()).isEqualTo("failed");
                assertThat(undelivered.get(0).attempts()).isEqualTo(3);
                assertThat(undelivered.get(0).lastAnswer()).isEqualTo("HTTP 503: busy");
                assertThat(undelivered.get(1).attempts()).as("the approval waits behind the failed send-back").isZero();
                assertThat(cms.requests.get()).isEqualTo(3);
                assertThat(session.history().of(article)).extracting(h -> h.action()).contains("relay_failed");

                cms.alwaysAnswer(0);
                assertThat(state.retry(cursors.get(0))).isEqualTo(1);
                relay.runOnce();
                relay.runOnce();
                assertThat(state.counts()).isEqualTo(new RelayState.Counts(2, 0, 0));
                assertThat(cms.processedInOrder()).extracting(StandInCms.Processed::cursor).containsExactlyElementsOf(cursors);
                assertThat(session.history().of(article)).extracting(h -> h.action()).contains("relay_retry");
            }
        }
    }

    @Test
    void onlyOneRelayDeliversAtATime() {
        RelayProcedures procedures = new OutcomeServices(relayDb).relayProcedures();
        RelayProcedures.DeliveryLease one = procedures.acquire("one", 30);
        RelayProcedures.DeliveryLease two = procedures.acquire("two", 30);
        assertThat(one.held()).isTrue();
        assertThat(two.held()).isFalse();
        assertThat(two.holder()).isEqualTo("one");
        assertThat(procedures.acquire("one", 30).token()).as("renewal keeps the token").isEqualTo(one.token());
        assertThat(session.relayState().activeRelay()).map(RelayState.ActiveRelay::holder).contains("one");
        procedures.release(one.token());
        RelayProcedures.DeliveryLease taken = procedures.acquire("two", 30);
        assertThat(taken.token()).as("a new holder, a new token (random: not the next number)").isNotEqualTo(one.token());
        Assertions.assertThatThrownBy(() -> procedures.next(one.token(), 10))
                .hasMessageContaining("no longer holds the delivery lease");
    }
}
