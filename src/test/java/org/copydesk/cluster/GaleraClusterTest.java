package org.copydesk.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.DatabaseBusyException;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Copydesk on a real three-node MariaDB Galera cluster ({@code .ci/galera-cluster.sh start}, then
 * {@code eval "$(.ci/galera-cluster.sh env)"}; the {@code galera} pass of {@code .ci/run} does
 * both). Skipped when {@code COPYDESK_GALERA_URL} is not set.
 *
 * <ol>
 *   <li>For each claim strategy, editors work through the real review operations on a single
 *       server (the run's usual test server), on one node of the cluster, and spread over its three
 *       nodes: no article held twice, nothing decided twice, every decision fenced by its lease,
 *       and nothing lost. The figures (decisions per second, conflicts) go to
 *       {@code target/galera/figures.md}; docs/servers.md quotes them.</li>
 *   <li>For each strategy, node 2, the node every editor's URL lists first, is SIGKILLed in the
 *       middle of a run: the editors carry on through the next node (Connector/J failover,
 *       Copydesk's reconnecting retries), nobody sees an error, and nothing is lost or doubled.</li>
 *   <li>Last, with {@code COPYDESK_GALERA_MULTI_WRITER=1}: editors spread over the three nodes, each
 *       writing through its own (the layout the docs advise against; measured to show why).</li>
 * </ol>
 */
@EnabledIfEnvironmentVariable(named = GaleraCluster.URL_ENV, matches = ".+")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GaleraClusterTest {

    private static final int EDITORS = 6;
    private static final int ARTICLES = 3000;
    private static final Duration RUN = Duration.ofSeconds(6);
    private static final Duration FAILOVER_RUN = Duration.ofSeconds(13);
    /** Node 2 dies after 5 s or a quarter of the desk decided, whichever is first, so that most of the desk is decided after. */
    private static final EditorsAtWork.EventAfter KILL_AFTER = new EditorsAtWork.EventAfter(Duration.ofSeconds(5), ARTICLES / 4);

    enum Topology { SINGLE_SERVER, ONE_NODE, THREE_NODES }

    private static GaleraCluster cluster;
    private static String schema;
    private static Database clusterAdmin;
    private static TestDatabase single;
    private static final List<String> figures = new ArrayList<>();
    private static final List<String> failovers = new ArrayList<>();

    @BeforeAll
    static void openBoth() throws SQLException {
        cluster = GaleraCluster.fromEnvironment(System.getenv()).orElseThrow();
        schema = "cluster_" + ProcessHandle.current().pid();
        cluster.createDatabase(schema);
        clusterAdmin = Database.open(cluster.url(schema, 1, true), cluster.user(), cluster.password().toCharArray(), null,
                DataSources.PoolSize.of(4), Database.SchemaAction.MIGRATE, null);
        single = TestDatabase.create("cluster_baseline", EDITORS + 2);
        assertThat(clusterAdmin.capabilities().galera()).as("wsrep_on detected on the cluster").isTrue();
        assertThat(single.database().capabilities().galera()).as("a single server is no Galera node").isFalse();
    }

    @AfterAll
    static void report() throws Exception {
        StringBuilder out = new StringBuilder("| where | strategy | decisions/s | vs single server | deadlocks (incl. certification)"
                + " | lock waits | busy | Galera cert. failures | editors' errors |\n|---|---|---|---|---|---|---|---|---|\n");
        figures.forEach(f -> out.append(f).append('\n'));
        out.append("\n| strategy | decisions/s | decisions after node 2 (everyone's first node) was killed | reconnects | editors' errors"
                + " | violations | node 2 back in |\n|---|---|---|---|---|---|---|\n");
        failovers.forEach(f -> out.append(f).append('\n'));
        System.out.println(out);
        GaleraCluster.writeReport(Path.of("target/galera/figures.md"), out.toString());
        if (clusterAdmin != null) {
            clusterAdmin.close();
            cluster.dropDatabase(schema);
        }
        if (single != null) {
            single.close();
        }
    }

    @Order(1)
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void editorsWritingThroughOneNodeNeverShareAnArticleNorDecideOneTwice(ClaimStrategyKind strategy) throws Exception {
        measure(strategy, Topology.SINGLE_SERVER, Topology.ONE_NODE);
    }

    /**
     * Last, and only when {@code COPYDESK_GALERA_MULTI_WRITER=1}: every writing node applies the
     * others' writes to the rows its own editors are working on, and MariaDB 10.11.18's applier
     * crashed (signal 11) in three of five such runs here, never with one writing node. A node
     * that crashed is named in the failure.
     */
    @Order(3)
    @EnabledIfEnvironmentVariable(named = "COPYDESK_GALERA_MULTI_WRITER", matches = "1|true")
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void editorsWritingThroughEveryNodeNeverShareAnArticleNorDecideOneTwice(ClaimStrategyKind strategy) throws Exception {
        assertThat(cluster.running()).as("nodes running before the run").containsExactly(1, 2, 3);
        try {
            measure(strategy, Topology.THREE_NODES);
        } finally {
            assertThat(cluster.running()).as("nodes still running after editors wrote through all three"
                    + " (a missing node crashed: see its error.log under target/galera)").containsExactly(1, 2, 3);
        }
    }

    private static final java.util.Map<ClaimStrategyKind, Double> singleRates = new java.util.EnumMap<>(ClaimStrategyKind.class);

    private static void measure(ClaimStrategyKind strategy, Topology... topologies) throws Exception {
        for (Topology where : topologies) {
            String desk = desk(where.name(), strategy);
            boolean onCluster = where != Topology.SINGLE_SERVER;
            DSLContext setup = onCluster ? clusterAdmin.dsl() : single.dsl();
            List<String> editors = prepareDesk(setup, desk);
            List<Database> pools = new ArrayList<>();
            List<EditorsAtWork.Editor> team = new ArrayList<>();
            long certBefore = onCluster ? certificationFailures() : 0;
            try {
                for (int i = 0; i < EDITORS; i++) {
                    int home = where == Topology.THREE_NODES ? 1 + i % 3 : 1;
                    team.add(new EditorsAtWork.Editor(editors.get(i), home,
                            services(where, home, strategy, pools)));
                }
                awaitReplicated(where, desk);
                EditorsAtWork.Outcome o = EditorsAtWork.run(team, RUN, null, null);
                long cert = onCluster ? certificationFailures() - certBefore : 0;
                if (where == Topology.SINGLE_SERVER) {
                    singleRates.put(strategy, o.perSecond());
                }
                List<String> violations = onCluster ? checked(desk, o) : ClusterLedger.violations(single.dsl(), desk, o.requestIds());
                figures.add(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %d | %d | %d | %s | %d |", label(where), strategy,
                        o.perSecond(), singleRates.containsKey(strategy)
                                ? String.format(Locale.ROOT, "%.2f", o.perSecond() / singleRates.get(strategy)) : "—",
                        o.deadlocks(), o.lockWaits(), o.busy(), onCluster ? String.valueOf(cert) : "—", o.failures().size()));
                assertThat(violations).as("%s on %s", strategy, where).isEmpty();
                assertThat(o.decided()).as("%s on %s decided something", strategy, where).isPositive();
                assertThat(o.lost()).as("leases lost while working").isZero();
                assertNoErrorsReachedEditors(strategy, o);
            } finally {
                pools.forEach(Database::close);
            }
        }
    }

    /**
     * The recommended layout: every editor lists the nodes in the same order (2, 3, 1), so all
     * write through node 2; node 2 is SIGKILLed mid-run and everyone carries on through node 3.
     */
    @Order(2)
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void editorsOfAKilledNodeCarryOnThroughTheNextAndLoseNothing(ClaimStrategyKind strategy) throws Exception {
        String desk = desk("failover", strategy);
        List<String> editors = prepareDesk(clusterAdmin.dsl(), desk);
        List<Database> pools = new ArrayList<>();
        List<EditorsAtWork.Editor> team = new ArrayList<>();
        long rejoinMillis;
        EditorsAtWork.Outcome o;
        try {
            for (int i = 0; i < EDITORS; i++) {
                int home = 2;
                // every node listed, node 2 first: Connector/J fails over to the next
                Database pool = Database.open(cluster.url(schema, home, false), cluster.user(), cluster.password().toCharArray(),
                        null, DataSources.PoolSize.of(3), Database.SchemaAction.NONE, null);
                pools.add(pool);
                team.add(new EditorsAtWork.Editor(editors.get(i), home,
                        new ReviewSession(pool, new ReviewSession.Options(strategy, Duration.ofSeconds(5)))));
            }
            awaitReplicated(Topology.THREE_NODES, desk);
            o = EditorsAtWork.run(team, FAILOVER_RUN, KILL_AFTER, () -> cluster.kill(2));
        } finally {
            pools.forEach(Database::close);
            long t0 = System.nanoTime();
            cluster.restart(2);
            rejoinMillis = (System.nanoTime() - t0) / 1_000_000;
        }
        List<String> violations = checked(desk, o);
        failovers.add(String.format(Locale.ROOT, "| %s | %.0f | %d | %d | %d | %d | %.1f s |", strategy, o.perSecond(),
                o.decidedAfterEventByHome()[2], o.reconnects(), o.failures().size(), violations.size(), rejoinMillis / 1000.0));
        assertThat(violations).as("%s with node 2 killed", strategy).isEmpty();
        assertThat(o.decidedAfterEventByHome()[2]).as("decisions after node 2 died").isPositive();
        assertThat(o.lost()).as("leases lost").isZero();
        assertNoErrorsReachedEditors(strategy, o);
    }

    private static void assertNoErrorsReachedEditors(ClaimStrategyKind strategy, EditorsAtWork.Outcome o) {
        if (strategy == ClaimStrategyKind.BLOCKING) {
            // as on a single server (OperationRaceTest): under a storm BLOCKING's bounded retries can run out
            assertThat(o.failures()).as("only busy refusals reach editors").allMatch(t -> t instanceof DatabaseBusyException);
        } else {
            assertThat(o.failures()).as("errors that reached editors").isEmpty();
        }
    }

    private static String desk(String where, ClaimStrategyKind strategy) {
        return (where.toLowerCase(Locale.ROOT).replace("_", "") + "_" + strategy.name().toLowerCase(Locale.ROOT).replace("_", ""));
    }

    private static String label(Topology where) {
        return switch (where) {
            case SINGLE_SERVER -> "single server";
            case ONE_NODE -> "cluster, every editor on node 1";
            case THREE_NODES -> "cluster, editors spread over 3 nodes";
        };
    }

    private static List<String> prepareDesk(DSLContext dsl, String desk) {
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk(desk, "Cluster " + desk, Duration.ofMinutes(30));
        List<String> editors = new ArrayList<>();
        for (int i = 0; i < EDITORS; i++) {
            String id = desk + "_" + i;
            newsroom.addEditor(id, "Editor " + i + " of " + desk, Role.EDITOR, 5, List.of(desk));
            editors.add(id);
        }
        Fixtures.articles(dsl, desk, ARTICLES, 3, -60);
        return editors;
    }

    private static ReviewSession services(Topology where, int home, ClaimStrategyKind strategy, List<Database> pools) {
        ReviewSession.Options options = new ReviewSession.Options(strategy, Duration.ofSeconds(5));
        if (where == Topology.SINGLE_SERVER) {
            return new ReviewSession(single.database(), options);
        }
        Database pool = Database.open(cluster.url(schema, home, true), cluster.user(), cluster.password().toCharArray(), null,
                DataSources.PoolSize.of(3), Database.SchemaAction.NONE, null);
        pools.add(pool);
        return new ReviewSession(pool, options);
    }

    /** Waits until every node has applied the desk's set-up (Galera applies other nodes' writes a moment later). */
    private static void awaitReplicated(Topology where, String desk) throws SQLException {
        if (where == Topology.SINGLE_SERVER) {
            return;
        }
        for (int node = 1; node <= 3; node++) {
            try (Connection c = cluster.connect(node, schema); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM article WHERE desk_id = '" + desk + "'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("articles node %d sees", node).isEqualTo(ARTICLES);
            }
        }
    }

    private static List<String> checked(String desk, EditorsAtWork.Outcome o) throws SQLException {
        try (Connection c = cluster.connect(1, schema)) {
            return ClusterLedger.violations(DSL.using(c, SQLDialect.MARIADB, Database.settings()), desk, o.requestIds());
        }
    }

    /**
     * Transactions the cluster refused because one on another node came first, over every node:
     * at their commit (certification failures) or while running (aborted by a replicated write).
     */
    private static long certificationFailures() throws SQLException {
        long total = 0;
        for (int node = 1; node <= 3; node++) {
            try (Connection c = cluster.connect(node, ""); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                         + " ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')")) {
                while (rs.next()) {
                    total += rs.getLong(2);
                }
            }
        }
        return total;
    }
}
