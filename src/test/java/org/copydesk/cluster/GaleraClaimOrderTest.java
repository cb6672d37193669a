package org.copydesk.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.DueTimes;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim order (docs/deadlines.md, "Claim order") on a Galera cluster, with three editors
 * claiming from one desk at the same moment. Run by the {@code galera} pass of {@code .ci/run} with
 * the test database on node 1 ({@code COPYDESK_TEST_DB_URL}) and the cluster's nodes in
 * {@code COPYDESK_GALERA_URL}; skipped without the latter. With every editor on node 1 (the
 * recommended layout) the claims race on that node; with an editor on each node (opt-in), each node
 * sees the others' claims a moment late, two nodes taking the same head article are told apart only
 * at commit (a certification failure, which the claim runs again), and the order must hold all the
 * same.
 *
 * <p>In each round the three editors claim one article each at once, then decide it. No claim may
 * take an article while a more urgent one (an earlier priority, or the same priority and an earlier
 * due minute) still waits, unless another editor took that one in the same round: the round takes
 * the most urgent articles there are.
 */
@EnabledIfEnvironmentVariable(named = GaleraCluster.URL_ENV, matches = ".+")
@ExtendWith(DatabaseExtension.class)
class GaleraClaimOrderTest {

    private static final Logger log = LoggerFactory.getLogger(GaleraClaimOrderTest.class);
    private static final int NODES = 3;
    private static final String DESK = "edition";

    private final TestDatabase db;
    private final DSLContext dsl;
    private final GaleraCluster cluster;
    private final List<Database> pools = new ArrayList<>();

    GaleraClaimOrderTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.cluster = GaleraCluster.fromEnvironment(System.getenv()).orElseThrow();
    }

    @AfterEach
    void close() {
        pools.forEach(Database::close);
    }

    /** An article's urgency as claims compare it: priority, then the due minute (none: after every due time). */
    private record Urgency(int priority, LocalDateTime dueMinute) implements Comparable<Urgency> {
        @Override
        public int compareTo(Urgency o) {
            return Comparator.comparingInt(Urgency::priority).thenComparing(Urgency::dueMinute).compare(this, o);
        }
    }

    /**
     * The recommended layout (docs/servers.md): every editor writes through node 1, three at once.
     * The claims race on one node, as on a single server, and their writes reach the others.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void editorsOnOneNodeNeverTakeALaterDueArticleWhileAnEarlierDueOneWaits(ClaimStrategyKind strategy) throws Exception {
        claimInRounds(strategy, 1, 1, 1);
    }

    /**
     * An editor on each node, each writing through its own: only with {@code COPYDESK_GALERA_MULTI_WRITER=1},
     * as GaleraClusterTest's cells of that layout. A claim that another node's write aborts while it
     * sends its results (Galera's brute-force abort of a running procedure) once reached the driver as a
     * garbled reply ("Index 7 out of bounds for length 7" reading a column definition; BLOCKING, in one
     * of six runs here), which is not a refusal Copydesk can retry.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    @EnabledIfEnvironmentVariable(named = "COPYDESK_GALERA_MULTI_WRITER", matches = "1|true")
    void editorsOnThreeNodesNeverTakeALaterDueArticleWhileAnEarlierDueOneWaits(ClaimStrategyKind strategy) throws Exception {
        claimInRounds(strategy, 1, 2, 3);
    }

    /**
     * 6 priority-1 articles without a due time, 18 priority-3 articles due 10, 20 … 180 minutes from
     * now in shuffled order (so arrival and due order differ), and 6 priority-3 articles without a
     * due time that waited longest: ten rounds of three claims take them all. {@code homes}: the node
     * each editor writes through.
     */
    private void claimInRounds(ClaimStrategyKind strategy, int... homes) throws Exception {
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk(DESK, "Edition", Duration.ofMinutes(30));
        newsroom.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of(DESK));
        List<String> editors = new ArrayList<>();
        for (int i = 0; i < homes.length; i++) {
            editors.add("editor" + i + "_node" + homes[i]);
            newsroom.addEditor(editors.get(i), "Editor " + i + " on node " + homes[i], Role.EDITOR, 1, List.of(DESK));
        }
        List<Long> undated = Fixtures.articles(dsl, DESK, 6, 3, -3600);
        List<Long> dated = Fixtures.articles(dsl, DESK, 18, 3, -600);
        List<Long> urgent = Fixtures.articles(dsl, DESK, 6, 1, -60);
        List<Integer> minutes = new ArrayList<>(IntStream.rangeClosed(1, dated.size()).boxed().toList());
        Collections.shuffle(minutes, new Random(39));
        Instant now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.MILLIS);
        for (int i = 0; i < dated.size(); i++) {
            DueTimes.over(dsl).set("sue", dated.get(i), now.plus(Duration.ofMinutes(10L * minutes.get(i))), "the edition");
        }
        Map<Long, Urgency> urgency = new HashMap<>();
        // from the due time itself, not the claim's own key (due_order), which the claim could get wrong
        dsl.select(ARTICLE.ID, ARTICLE.PRIORITY, ARTICLE.DUE_AT).from(ARTICLE).where(ARTICLE.DESK_ID.eq(DESK))
                .fetch().forEach(r -> urgency.put(r.value1(), new Urgency(r.value2(),
                        r.value3() == null ? LocalDateTime.MAX : r.value3().truncatedTo(ChronoUnit.MINUTES))));
        assertThat(urgency).hasSize(undated.size() + dated.size() + urgent.size());

        List<ReviewSession> onNode = new ArrayList<>();
        for (int home : homes) {
            Database pool = Database.open(cluster.url(db.name(), home, true), cluster.user(), cluster.password().toCharArray(), null,
                    DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null);
            pools.add(pool);
            onNode.add(new ReviewSession(pool, new ReviewSession.Options(strategy, Duration.ofSeconds(5))));
        }
        awaitReplicated(urgency.size());

        Set<Long> waiting = new HashSet<>(urgency.keySet());
        List<String> violations = new ArrayList<>();
        List<Long> takenInOrder = new ArrayList<>();
        CyclicBarrier together = new CyclicBarrier(homes.length);
        ExecutorService pool = Executors.newFixedThreadPool(homes.length);
        try {
            for (int round = 1; !waiting.isEmpty(); round++) {
                List<Future<List<HeldArticle>>> claims = new ArrayList<>();
                for (int node = 0; node < homes.length; node++) {
                    ReviewSession services = onNode.get(node);
                    String editor = editors.get(node);
                    claims.add(pool.submit(() -> {
                        together.await();
                        return services.queue().claim(editor).articles();
                    }));
                }
                List<Long> taken = new ArrayList<>();
                for (int node = 0; node < homes.length; node++) {
                    for (HeldArticle held : claims.get(node).get()) {
                        taken.add(held.id());
                        DecisionOutcome d = onNode.get(node).decisions().submit(new DecisionRequest(java.util.UUID.randomUUID(),
                                held.id(), held.lease(), Verdict.APPROVE, ""));
                        assertThat(d).as("round %d, %s decides %d", round, editors.get(node), held.id())
                                .isInstanceOf(DecisionOutcome.Recorded.class);
                    }
                }
                assertThat(new HashSet<>(taken)).as("round %d: no article taken twice", round).hasSameSizeAs(taken);
                assertThat(taken).as("round %d: every editor takes one while enough wait", round)
                        .hasSize(Math.min(homes.length, waiting.size()));
                for (long x : taken) {
                    for (long y : waiting) {
                        if (!taken.contains(y) && urgency.get(y).compareTo(urgency.get(x)) < 0) {
                            violations.add(String.format(Locale.ROOT, "round %d: %d (%s) taken while %d (%s) waited", round, x,
                                    urgency.get(x), y, urgency.get(y)));
                        }
                    }
                }
                waiting.removeAll(taken);
                takenInOrder.addAll(taken);
                assertThat(round).as("rounds").isLessThanOrEqualTo(urgency.size());
            }
        } finally {
            pool.shutdownNow();
        }

        long retried = onNode.stream().mapToLong(s -> s.retryMetrics().deadlocks()).sum();
        log.info("{}, editors on nodes {}: {} articles taken, {} claims or decisions run again after a conflict"
                + " (certification failure or deadlock)", strategy, java.util.Arrays.toString(homes), takenInOrder.size(), retried);
        assertThat(violations).as("%s: claims that passed over a more urgent article", strategy).isEmpty();
        assertThat(takenInOrder.subList(0, urgent.size())).as("priority 1 first").containsExactlyInAnyOrderElementsOf(urgent);
        assertThat(takenInOrder.subList(urgent.size() + dated.size(), takenInOrder.size())).as("undated last, however long they waited")
                .containsExactlyInAnyOrderElementsOf(undated);
    }

    /** Waits until every node has applied the desk's set-up, due times included. */
    private void awaitReplicated(int articles) throws Exception {
        for (int node = 1; node <= NODES; node++) {
            try (var c = cluster.connect(node, db.name()); var s = c.createStatement();
                 var rs = s.executeQuery("SELECT COUNT(*), COUNT(due_at) FROM article WHERE desk_id = '" + DESK + "'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("articles node %d sees", node).isEqualTo(articles);
                assertThat(rs.getInt(2)).as("due times node %d sees", node).isEqualTo(18);
            }
        }
    }
}
