package org.copydesk.reliability;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ArticleLeases;
import org.copydesk.review.LeaseEventAudit;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TcpProxy;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A newsroom under faults: editors in several client processes ({@link NewsroomWorker}) work a
 * shared queue on an embedded MariaDB of this run's own, while this class SIGKILLs client processes
 * holding leases (and starts replacements), kills their database connections from the server side,
 * slows and drops one client's network through a {@link TcpProxy}, runs one client in a time zone
 * fourteen hours off, and stops and restarts the server. Then it checks, from the tables and the
 * event log ({@link LeaseEventAudit}), what the newsroom promises: no article held twice, every
 * article finished at most once, no decision lost or doubled, no draft lost, and dead clients'
 * leases lapsing within ttl + release interval.
 *
 * <p>{@code NewsroomFaultTest} runs the short form; {@link #main} the long one
 * ({@code mvn -q test-compile exec:exec@fault-test}, see docs/reliability.md).
 */
public final class NewsroomFaultRun {

    private static final Logger log = LoggerFactory.getLogger(NewsroomFaultRun.class);
    private static final String DB = "newsroom_fault";
    private static final String HARNESS_USER = "fault_harness";
    private static final String HARNESS_PASSWORD = "harness-only";
    /** The client whose network is slow and flaky, and the one whose clock is in another zone. */
    private static final int SLOW_CLIENT = 2;
    private static final int FAR_ZONE_CLIENT = 3;
    /** UTC+14: the wall clock there is 14 hours ahead of the server's UTC. */
    private static final String FAR_ZONE = "Pacific/Kiritimati";

    /** How big and how long. */
    /** The desk that reviews in stages: Copy edit, then Sign-off with four eyes. */
    static final String STAGED_DESK = "news";
    static final String FIRST_STAGE = "copy";

    public record Settings(int processes, int editorsPerProcess, int articles, Duration runFor, Duration ttl,
                           Duration releaseInterval, boolean restartServer, Path workdir) {

        /**
         * The CI form: 4 processes x 6 editors, 1,000 articles, 24 s. Every fault still happens and is
         * counted (two kills holding leases, a restart, killed connections, the slow network's spells,
         * the far clock): 6 editors of capacity 2 hold up to 12 leases per client, so each kill still
         * leaves dead leases to lapse, and 24 s fit the schedule (kills at 2.4 s and after the restart,
         * which waits out the first kill's expiry window) with the second kill's leases lapsing well
         * before the end. The checks replay every event, so more editors add volume, not a new case.
         */
        public static Settings shortForm(Path workdir) {
            return new Settings(4, 6, 1_000, Duration.ofSeconds(24), Duration.ofSeconds(4), Duration.ofSeconds(1),
                    true, workdir);
        }

        public static Settings longForm(Path workdir) {
            return new Settings(6, 20, 6_000, Duration.ofMinutes(4), Duration.ofSeconds(4), Duration.ofSeconds(1),
                    true, workdir);
        }

        int editors() {
            return processes * editorsPerProcess;
        }
    }

    /** A lease a killed client held, and when (server clock) it died. */
    record DeadLease(long articleId, String owner, long token, LocalDateTime expiresAt, LocalDateTime killedAt) {
    }

    /** What the run did and found. {@code problems} is empty when every promise held. */
    public record Results(Map<String, Object> counts, List<String> problems) {
        public String summary() {
            return counts.entrySet().stream().map(e -> "  " + e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining("\n"));
        }
    }

    private final Settings settings;
    private final Map<String, Object> counts = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final List<DeadLease> deadLeases = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final Set<String> killedClients = new HashSet<>();
    private final AtomicInteger connectionsKilled = new AtomicInteger();
    private final AtomicInteger connectionsKilledBusy = new AtomicInteger();
    private volatile boolean serverDown;
    private long lastKill = System.nanoTime();
    private EmbeddedServer server;
    private Database harness;

    public NewsroomFaultRun(Settings settings) {
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        Path workdir = Path.of(System.getProperty("fault.workdir", "target/fault-run"));
        Settings s = Settings.longForm(workdir);
        if (args.length >= 1) {
            s = new Settings(s.processes(), Integer.parseInt(args[0]) / s.processes(), s.articles(), s.runFor(), s.ttl(),
                    s.releaseInterval(), s.restartServer(), workdir);
        }
        if (args.length >= 2) {
            s = new Settings(s.processes(), s.editorsPerProcess(), Integer.parseInt(args[1]), s.runFor(), s.ttl(),
                    s.releaseInterval(), s.restartServer(), workdir);
        }
        if (args.length >= 3) {
            s = new Settings(s.processes(), s.editorsPerProcess(), s.articles(), Duration.ofSeconds(Long.parseLong(args[2])),
                    s.ttl(), s.releaseInterval(), s.restartServer(), workdir);
        }
        Results r = new NewsroomFaultRun(s).run();
        System.out.println("Newsroom fault run (" + s + "):\n" + r.summary());
        if (!r.problems().isEmpty()) {
            System.out.println("PROBLEMS:\n  " + String.join("\n  ", r.problems()));
            System.exit(1);
        }
        System.exit(0);
    }

    public Results run() throws Exception {
        long started = System.nanoTime();
        Path folder = settings.workdir().resolve("server");
        Path clientLogs = settings.workdir().resolve("clients");
        Files.createDirectories(clientLogs);
        Path stopFile = settings.workdir().resolve("stop");
        Files.deleteIfExists(stopFile);
        server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(folder, "127.0.0.1", 0,
                EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(90)));
        int port = server.port();
        String url = "jdbc:mysql://127.0.0.1:" + port + "/" + DB + "?sslMode=DISABLED";
        prepareServer(server);
        harness = Database.open(url, HARNESS_USER, HARNESS_PASSWORD.toCharArray(), null, DataSources.PoolSize.of(3),
                Database.SchemaAction.MIGRATE, null);
        List<Process> processes = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", port)) {
            seed(harness.dsl());
            log.info("Seeded {} editors' accounts and {} articles after {} ms", settings.editors() + 2 * settings.editorsPerProcess(),
                    settings.articles(), (System.nanoTime() - started) / 1_000_000);
            String proxiedUrl = "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + DB + "?sslMode=DISABLED";
            for (int p = 1; p <= settings.processes(); p++) {
                processes.add(startClient("p" + p, p == SLOW_CLIENT ? proxiedUrl : url,
                        p == FAR_ZONE_CLIENT ? List.of("-Duser.timezone=" + FAR_ZONE) : List.of(), stopFile, clientLogs));
            }
            for (int p = 1; p <= settings.processes(); p++) {
                awaitClaims("p" + p, processes.get(p - 1), clientLogs.resolve("p" + p + ".log"));
            }
            log.info("Every client claiming after {} ms", (System.nanoTime() - started) / 1_000_000);
            Thread killer = new Thread(() -> killConnections(stop), "fault-connection-killer");
            Thread network = new Thread(() -> flakyNetwork(proxy, stop), "fault-network");
            killer.start();
            network.start();

            // The schedule: faults one after another; the restart waits out the first kill's expiry
            // window, so the take-over delay measured belongs to the kill alone.
            long workStarted = System.nanoTime();
            long runNanos = settings.runFor().toNanos();
            sleepUntil(workStarted, runNanos / 10);
            int victim = settings.processes();
            processes.set(victim - 1, killAndReplace(processes.get(victim - 1), "p" + victim, "r" + victim, url, stopFile,
                    clientLogs));
            if (settings.restartServer()) {
                sleepUntil(workStarted, runNanos * 3 / 10);
                // On a slow machine the kill may come late: keep the restart out of the dead leases'
                // expiry window, so the take-over delay measured is the kill's alone.
                sleepUntil(lastKill, quietAfterKill().toNanos());
                restartServer(port);
            }
            sleepUntil(workStarted, runNanos / 2);
            processes.set(0, killAndReplace(processes.get(0), "p1", "r1", url, stopFile, clientLogs));
            // Run until the time is up or the queue is empty (send-backs come back within seconds).
            while (System.nanoTime() - workStarted < runNanos && queued() > 0) {
                Thread.sleep(500);
            }
            // On a slow machine the last kill can come just before the time is up: the clients keep
            // working (their release services sweeping) until the killed clients' leases have ended
            // or their bound has passed, so "never ended" below means never, not "stopped first".
            while (System.nanoTime() - lastKill < expiryBound().toNanos() && !deadLeasesEnded(harness.dsl())) {
                Thread.sleep(250);
            }
            stop.set(true);
            killer.join(10_000);
            network.join(10_000);
            proxy.delay(Duration.ZERO);
            proxy.dropChance(0);
            Files.writeString(stopFile, "stop");
            for (Process process : processes) {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    problems.add("a client did not stop within 60 s of the stop file; killed");
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            counts.put("wall seconds", (System.nanoTime() - started) / 1_000_000_000);
            check(harness.dsl());
            return new Results(counts, problems);
        } finally {
            stop.set(true);
            Files.writeString(stopFile, "stop");
            processes.forEach(Process::destroyForcibly);
            harness.close();
            server.close();
        }
    }

    /** A fresh database, and an account for this harness that the connection killer leaves alone (workers sign in as editors). */
    private static void prepareServer(EmbeddedServer server) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port() + "/?sslMode=DISABLED",
                EmbeddedServer.ROOT_USER, new String(server.rootPassword())); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DB);
            s.execute("CREATE DATABASE " + DB);
            s.execute("CREATE USER IF NOT EXISTS '" + HARNESS_USER + "'@'%' IDENTIFIED BY '" + HARNESS_PASSWORD + "'");
            s.execute("GRANT ALL PRIVILEGES ON *.* TO '" + HARNESS_USER + "'@'%' WITH GRANT OPTION");
        }
    }

    private void seed(DSLContext dsl) {
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addDesk("sport", "Sport", Duration.ofMinutes(30));
        // Send-backs return after 1 s (doubling); after two the article is quarantined: the run sees
        // articles come back and be claimed again, and finish.
        // sent-back work returns on the timer (no writers send revisions in this run)
        dsl.update(DESK).set(DESK.SEND_BACK_DELAY_SECONDS, 1).set(DESK.MAX_SEND_BACKS, 2).set(DESK.SEND_BACK_WAITS_FOR_WRITER, 0).execute();
        // the clients' editors, and the replacements' of the two clients the run kills (the last, then the first);
        // an account is the slowest part of the set-up (a user and its grants), so no more than are used
        List<String> clients = new ArrayList<>();
        for (int p = 1; p <= settings.processes(); p++) {
            clients.add("p" + p);
        }
        clients.add("r" + settings.processes());
        clients.add("r1");
        for (String client : clients) {
            for (String editor : editorsOf(client)) {
                newsroom.addEditor(editor, editor, Role.EDITOR, 2, List.of("news", "sport"));
                // each simulated editor signs in with their own account, under the real rules
                new AccountAdministration(dsl).createAccount(editor, NewsroomWorker.passwordOf(editor).toCharArray());
            }
        }
        int perPart = settings.articles() / 6;
        int made = 0;
        for (int priority = 1; priority <= 3; priority++) {
            for (String desk : List.of("news", "sport")) {
                int n = priority == 3 && desk.equals("sport") ? settings.articles() - made : perPart;
                Fixtures.articles(dsl, desk, n, priority, -60);
                made += n;
            }
        }
        // News reviews in two stages (its first takes in the articles just made); Sport in one, as a desk
        // without stages always has: both kinds of desk under the same faults
        ReviewStages stages = ReviewStages.over(dsl);
        stages.set(null, new ReviewStages.Settings(STAGED_DESK, FIRST_STAGE, "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings(STAGED_DESK, "signoff", "Sign-off", null, null, false, true, false));
    }

    private List<String> editorsOf(String client) {
        List<String> editors = new ArrayList<>();
        for (int i = 1; i <= settings.editorsPerProcess(); i++) {
            editors.add(client + "e" + i);
        }
        return editors;
    }

    private Process startClient(String name, String url, List<String> jvmOptions, Path stopFile, Path clientLogs) {
        Path out = clientLogs.resolve(name + ".log");
        logs.add(out);
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-Dcopydesk.log.level=WARN");
        return ChildJvm.start(NewsroomWorker.class, options, List.of(url, name,
                String.join(",", editorsOf(name)), Long.toString(settings.ttl().toMillis()),
                Long.toString(settings.releaseInterval().toMillis()), stopFile.toAbsolutePath().toString()), out);
    }

    private void awaitClaims(String client, Process process, Path processLog) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!harness.dsl().fetchExists(LEASE_EVENT, LEASE_EVENT.ACTION.eq("claim")
                .and(LEASE_EVENT.NEW_OWNER.like(client + "e%")))) {
            if (!process.isAlive() || System.nanoTime() > until) {
                throw new IllegalStateException("client " + client + " did not claim (alive: " + process.isAlive() + "):\n"
                        + (Files.exists(processLog) ? Files.readString(processLog) : ""));
            }
            Thread.sleep(50);
        }
    }

    /** SIGKILLs the client at a moment it holds valid leases, records them, and starts a replacement. */
    private Process killAndReplace(Process process, String client, String replacement, String url, Path stopFile,
                                   Path clientLogs) throws Exception {
        DSLContext dsl = harness.dsl();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<? extends Record> held = List.of();
        while (held.isEmpty() && System.nanoTime() < until) {
            held = dsl.select(ARTICLE.ID, ARTICLE.LOCKED_BY, ARTICLE.LEASE_TOKEN, ARTICLE.EXPIRES_AT).from(ARTICLE)
                    .where(ARTICLE.LOCKED_BY.like(client + "e%")).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now())).fetch();
        }
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        lastKill = System.nanoTime();
        killedClients.add(client);
        LocalDateTime killedAt = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        for (Record r : held) {
            deadLeases.add(new DeadLease(r.get(ARTICLE.ID), r.get(ARTICLE.LOCKED_BY), r.get(ARTICLE.LEASE_TOKEN),
                    r.get(ARTICLE.EXPIRES_AT), killedAt));
        }
        log.info("Killed client {} holding {} lease(s); starting {}", client, held.size(), replacement);
        counts.merge("client processes killed (SIGKILL)", 1, (a, b) -> (Integer) a + (Integer) b);
        return startClient(replacement, url, List.of(), stopFile, clientLogs);
    }

    private void restartServer(int port) throws Exception {
        serverDown = true;
        long t0 = System.nanoTime();
        server.shutdown();
        // Down for longer than a lease lasts: every lease held when the server went away has lapsed when
        // it is back, so the decisions and drafts in flight then must be refused (written under a lapsed
        // lease), at any size of the run; with a shorter outage that took many more editors to happen.
        Thread.sleep(settings.ttl().toMillis());
        server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(settings.workdir().resolve("server"),
                "127.0.0.1", port, EmbeddedServer.Mode.FOREGROUND, Duration.ofSeconds(90)));
        serverDown = false;
        long downMillis = (System.nanoTime() - t0) / 1_000_000;
        counts.put("server restarts", 1);
        counts.put("server down (ms)", downMillis);
        log.info("Restarted the server on port {} after {} ms down", port, downMillis);
    }

    /** Kills a random Copydesk client connection every few hundred ms, preferring one busy with a statement. */
    private void killConnections(AtomicBoolean stop) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            try {
                Thread.sleep(150 + random.nextInt(300));
                if (serverDown) {
                    continue;
                }
                // Plain SQL: the process list is not in the generated schema. Workers sign in as their
                // editors; this harness as its own account, which is left alone.
                List<Record> sessions = harness.dsl().fetch("select ID, COMMAND from information_schema.PROCESSLIST "
                        + "where USER <> {0} and DB = {1}", DSL.inline(HARNESS_USER), DSL.inline(DB)).stream()
                        .map(r -> (Record) r).toList();
                List<Record> busy = sessions.stream().filter(r -> !"Sleep".equals(r.get(1, String.class))).toList();
                List<Record> pool = busy.isEmpty() ? sessions : busy;
                if (pool.isEmpty()) {
                    continue;
                }
                long id = pool.get(random.nextInt(pool.size())).get(0, Long.class);
                harness.dsl().execute("kill connection {0}", DSL.inline(id));
                connectionsKilled.incrementAndGet();
                if (!busy.isEmpty()) {
                    connectionsKilledBusy.incrementAndGet();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the session ended by itself first, or the server is restarting
            }
        }
    }

    /** The slow client's network: always a little slow and lossy, with bad spells of 2 s every 5 s. */
    private void flakyNetwork(TcpProxy proxy, AtomicBoolean stop) {
        int spells = 0;
        try {
            while (!stop.get()) {
                proxy.delay(Duration.ofMillis(2));
                proxy.dropChance(0.001);
                Thread.sleep(3_000);
                proxy.delay(Duration.ofMillis(40));
                proxy.dropChance(0.01);
                spells++;
                Thread.sleep(2_000);
            }
        } catch (InterruptedException e) {
            // stopped
        }
        counts.put("slow-network spells (40 ms per packet, 1 % drops)", spells);
    }

    private int queued() {
        return harness.dsl().fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.queued));
    }

    private static void sleepUntil(long started, long offsetNanos) throws InterruptedException {
        long wait = started + offsetNanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    // ---------------------------------------------------------------- the checks

    private void check(DSLContext dsl) throws IOException {
        counts.put("editors", settings.editors() + " in " + settings.processes() + " processes (+ "
                + 2 * settings.editorsPerProcess() + " in 2 replacements)");
        counts.put("articles", settings.articles());
        counts.put("connections killed (KILL CONNECTION)", connectionsKilled.get() + " (" + connectionsKilledBusy.get()
                + " while running a statement)");
        for (ArticleStatus status : ArticleStatus.values()) {
            counts.put("articles " + status.getLiteral(), dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(status)));
        }

        // 1. No article held by two editors at once, no stale write: the event log replayed row by row.
        // A send-back completes the lease but puts the article back in the queue; the review history
        // (approve, reject, send_back, quarantine entries) shares the log and changes no lease.
        // An approval at Copy edit does the same: the article waits for Sign-off (a 'stage' row at the same instant).
        Set<String> stageSteps = dsl.select(LEASE_EVENT.ROW_KEY, LEASE_EVENT.OCCURRED_AT).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("stage")).fetchSet(r -> r.value1() + "@" + r.value2());
        LeaseEventAudit.Report audit = LeaseEventAudit.replay(dsl, ArticleLeases.RESOURCE,
                e -> DecisionVerdict.send_back.getLiteral().equals(e.getDetail())
                        || stageSteps.contains(e.getRowKey() + "@" + e.getOccurredAt()),
                e -> !LeaseEventAudit.LEASE_ACTIONS.contains(e.getAction()));
        long heldTwice = audit.violations().stream().filter(v -> v.startsWith("claimed while held")).count();
        counts.put("lease events", audit.events());
        counts.put("claims", audit.claims() + " (" + audit.takeOvers() + " take-overs of lapsed leases, "
                + audit.sweptExpiries() + " swept by release services)");
        counts.put("leases held twice", heldTwice);
        counts.put("event log violations", audit.violations().size());
        audit.violations().stream().limit(20).forEach(v -> problems.add("event log: " + v));

        // 2. Decisions: never doubled, at most one final decision per article, and it matches the status.
        // An approval at Copy edit moves the article on to Sign-off: a step, not its final decision.
        List<Record> decisions = new ArrayList<>(dsl.select(DECISION.REQUEST_ID, DECISION.ARTICLE_ID, DECISION.EDITOR_ID,
                DECISION.VERDICT, DECISION.STAGE_ID).from(DECISION).fetch());
        counts.put("decisions", decisions.size());
        Map<Long, List<DecisionVerdict>> finals = new HashMap<>();
        Map<Long, Set<String>> copyApprovers = new HashMap<>();
        Map<Long, String> signedOffBy = new HashMap<>();
        for (Record d : decisions) {
            DecisionVerdict v = d.get(DECISION.VERDICT);
            boolean stageStep = v == DecisionVerdict.approve && FIRST_STAGE.equals(d.get(DECISION.STAGE_ID));
            if (stageStep) {
                copyApprovers.computeIfAbsent(d.get(DECISION.ARTICLE_ID), k -> new HashSet<>()).add(d.get(DECISION.EDITOR_ID));
            } else if (v != DecisionVerdict.send_back) {
                finals.computeIfAbsent(d.get(DECISION.ARTICLE_ID), k -> new ArrayList<>()).add(v);
                if (v == DecisionVerdict.approve && d.get(DECISION.STAGE_ID) != null) {
                    signedOffBy.put(d.get(DECISION.ARTICLE_ID), d.get(DECISION.EDITOR_ID));
                }
            }
        }
        // 2b. The stages: every News article signed off went through Copy edit, and never by whoever copy-edited it.
        Set<Long> stagedArticles = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.DESK_ID.eq(STAGED_DESK)).fetchSet(ARTICLE.ID);
        long fourEyesBroken = signedOffBy.entrySet().stream()
                .filter(e -> copyApprovers.getOrDefault(e.getKey(), Set.of()).contains(e.getValue())).count();
        long skippedCopyEdit = signedOffBy.keySet().stream().filter(id -> !copyApprovers.containsKey(id)).count();
        long signedOffElsewhere = signedOffBy.keySet().stream().filter(id -> !stagedArticles.contains(id)).count();
        counts.put("approvals at Copy edit (moved on to Sign-off)", copyApprovers.values().stream().mapToInt(Set::size).sum());
        counts.put("articles signed off", signedOffBy.size());
        counts.put("signed off by whoever copy-edited them (four eyes broken)", fourEyesBroken);
        if (fourEyesBroken > 0 || skippedCopyEdit > 0 || signedOffElsewhere > 0) {
            problems.add(fourEyesBroken + " signed off by their copy editor; " + skippedCopyEdit + " signed off without Copy edit; "
                    + signedOffElsewhere + " decided at a stage off the staged desk");
        }
        long doubled = finals.values().stream().filter(l -> l.size() > 1).count();
        Map<Long, ArticleStatus> statuses = dsl.select(ARTICLE.ID, ARTICLE.STATUS).from(ARTICLE)
                .fetchMap(ARTICLE.ID, ARTICLE.STATUS);
        long mismatched = 0;
        for (Map.Entry<Long, ArticleStatus> a : statuses.entrySet()) {
            List<DecisionVerdict> f = finals.getOrDefault(a.getKey(), List.of());
            boolean ok = switch (a.getValue()) {
                case approved -> f.equals(List.of(DecisionVerdict.approve));
                case rejected -> f.equals(List.of(DecisionVerdict.reject));
                case queued, quarantined, awaiting_writer -> f.isEmpty(); // quarantined here only by too many send-backs
            };
            if (!ok) {
                mismatched++;
                if (mismatched <= 10) {
                    problems.add("article " + a.getKey() + " is " + a.getValue() + " with final decisions " + f);
                }
            }
        }
        long completes = dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("complete"));
        if (completes != decisions.size()) {
            problems.add(completes + " complete events for " + decisions.size() + " decisions");
        }
        long finishedTwiceByLog = audit.completesPerRow().values().stream().filter(n -> n > 1).count();
        counts.put("articles with two final decisions", doubled);
        counts.put("articles whose status disagrees with their decisions", mismatched);
        counts.put("articles finished twice by the event log", finishedTwiceByLog);
        if (doubled > 0 || finishedTwiceByLog > 0) {
            problems.add(doubled + " articles decided twice; " + finishedTwiceByLog + " completed twice in the log");
        }

        // 3. From the clients' own reports: every decision they were told was recorded exists; every
        // decision row was asked for; every draft they saved is still there (or was consumed by
        // their own decision).
        Set<String> requestIds = decisions.stream().map(d -> d.get(DECISION.REQUEST_ID)).collect(Collectors.toSet());
        Set<String> submitted = new HashSet<>();
        long confirmed = 0;
        long confirmedMissing = 0;
        long alreadyRecorded = 0;
        long lostLease = 0;
        long draftsChecked = 0;
        long draftsLost = 0;
        long draftsOfKilled = 0;
        long retries = 0;
        Set<String> decidedBy = decisions.stream()
                .map(d -> d.get(DECISION.ARTICLE_ID) + " " + d.get(DECISION.EDITOR_ID)).collect(Collectors.toSet());
        Map<String, String> draftRows = new HashMap<>();
        dsl.select(REVIEW_DRAFT.ARTICLE_ID, REVIEW_DRAFT.EDITOR_ID, REVIEW_DRAFT.NOTES).from(REVIEW_DRAFT)
                .forEach(r -> draftRows.put(r.value1() + " " + r.value2(), r.value3()));
        for (Path file : logs) {
            // last draft per (article, editor), and whether a submit by that editor followed it
            Map<String, String> lastDraft = new HashMap<>();
            Set<String> submittedAfterDraft = new HashSet<>();
            for (String line : Files.readAllLines(file)) {
                if (!line.startsWith(NewsroomWorker.MARK)) {
                    continue;
                }
                String[] f = line.substring(NewsroomWorker.MARK.length()).split(" ", 4);
                switch (f[0]) {
                    case "DRAFT" -> {
                        String key = f[1] + " " + f[2];
                        lastDraft.put(key, f[3]);
                        submittedAfterDraft.remove(key);
                    }
                    case "SUBMIT" -> {
                        submitted.add(f[1]);
                        submittedAfterDraft.add(f[2] + " " + f[3].split(" ")[0]);
                    }
                    case "OUTCOME" -> {
                        if (f[2].equals("Recorded") || f[2].equals("AlreadyRecorded")) {
                            confirmed++;
                            if (!requestIds.contains(f[1])) {
                                confirmedMissing++;
                                problems.add("decision " + f[1] + " was confirmed to the client but is not in the database");
                            }
                            if (f[2].equals("AlreadyRecorded")) {
                                alreadyRecorded++;
                            }
                        } else if (f[2].equals("Lost")) {
                            lostLease++;
                        }
                    }
                    case "COUNTS" -> {
                        Matcher m = Pattern.compile("retries=(\\d+)").matcher(line);
                        if (m.find()) {
                            retries += Long.parseLong(m.group(1));
                        }
                    }
                    default -> { }
                }
            }
            boolean killed = killedClients.contains(file.getFileName().toString().replace(".log", ""));
            for (Map.Entry<String, String> d : lastDraft.entrySet()) {
                draftsChecked++;
                if (killed) {
                    draftsOfKilled++;
                }
                boolean there = d.getValue().equals(draftRows.get(d.getKey()));
                boolean consumed = submittedAfterDraft.contains(d.getKey()) && decidedBy.contains(d.getKey());
                if (!there && !consumed) {
                    draftsLost++;
                    if (draftsLost <= 10) {
                        problems.add("draft of " + d.getKey() + " lost (" + file.getFileName() + "): database has "
                                + draftRows.get(d.getKey()));
                    }
                }
            }
        }
        long phantom = requestIds.stream().filter(id -> !submitted.contains(id)).count();
        if (phantom > 0) {
            problems.add(phantom + " decisions in the database that no client submitted");
        }
        counts.put("decisions confirmed to clients", confirmed + " (" + alreadyRecorded
                + " of them retries answered 'already recorded')");
        counts.put("decisions lost (confirmed but missing)", confirmedMissing);
        counts.put("decisions refused for a lost lease", lostLease);
        counts.put("client calls retried after a failure", retries + " (clients that exited normally)");
        counts.put("drafts checked (last per article and editor)", draftsChecked + " (" + draftsOfKilled
                + " written by clients later SIGKILLed)");
        counts.put("drafts lost", draftsLost);

        // 4. The killed clients' leases lapsed and were taken over within ttl + release interval.
        // Bound: the lease's own remaining time (<= ttl) plus one release interval, doubled, plus
        // 10 s of slack for sweeps and claims whose connections were killed on a busy two-core
        // machine. No restart falls in that window (see the schedule).
        Duration bound = expiryBound();
        long lapsed = 0;
        Duration worstExpiry = Duration.ZERO;
        Duration worstTakeOver = Duration.ZERO;
        long endedByHolder = 0;
        for (DeadLease dead : deadLeases) {
            LeaseEventRecord end = endOf(dsl, dead);
            if (end == null) {
                problems.add("lease of dead client " + dead + " never ended");
                continue;
            }
            if (!end.getAction().equals("expire")) {
                endedByHolder++; // completed or released in the instant before the kill
                continue;
            }
            lapsed++;
            Duration expiry = Duration.between(dead.killedAt(), end.getOccurredAt());
            worstExpiry = max(worstExpiry, expiry);
            if (expiry.compareTo(bound) > 0) {
                problems.add("dead lease " + dead + " expired only after " + expiry + " (bound " + bound + ")");
            }
            LeaseEventRecord next = dsl.selectFrom(LEASE_EVENT).where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                    .and(LEASE_EVENT.ROW_KEY.eq(String.valueOf(dead.articleId()))).and(LEASE_EVENT.ID.gt(end.getId()))
                    .and(LEASE_EVENT.ACTION.eq("claim")).orderBy(LEASE_EVENT.ID).limit(1).fetchOne();
            if (next != null) {
                worstTakeOver = max(worstTakeOver, Duration.between(dead.killedAt(), next.getOccurredAt()));
            }
        }
        if (lapsed == 0) {
            problems.add("no lease of a killed client lapsed: the kills did not hit held leases");
        }
        counts.put("leases held by killed clients", deadLeases.size() + " (" + lapsed + " lapsed, " + endedByHolder
                + " ended by the client just before the kill)");
        counts.put("longest kill-to-expiry", worstExpiry.toMillis() + " ms (ttl " + settings.ttl().toMillis()
                + " ms + release interval " + settings.releaseInterval().toMillis() + " ms; bound " + bound.toMillis() + " ms)");
        counts.put("longest kill-to-new-claim", worstTakeOver.toMillis() + " ms");
        log.info("Newsroom fault run:\n{}", new Results(counts, problems).summary());
    }

    /** The history row that ended {@code dead}'s lease (expired, completed or released), or null. */
    private static LeaseEventRecord endOf(DSLContext dsl, DeadLease dead) {
        return dsl.selectFrom(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(String.valueOf(dead.articleId())))
                .and(LEASE_EVENT.OLD_OWNER.eq(dead.owner())).and(LEASE_EVENT.OLD_TOKEN.eq(dead.token()))
                .orderBy(LEASE_EVENT.ID).limit(1).fetchOne();
    }

    private boolean deadLeasesEnded(DSLContext dsl) {
        return deadLeases.stream().allMatch(dead -> endOf(dsl, dead) != null);
    }

    private Duration expiryBound() {
        return settings.ttl().plus(settings.releaseInterval()).multipliedBy(2).plusSeconds(10);
    }

    /** How long after a kill the restart waits: the dead leases' expiry window, plus a little. */
    private Duration quietAfterKill() {
        return settings.ttl().plus(settings.releaseInterval()).plusSeconds(3);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
