package org.copydesk.bench;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Editor;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.ui.common.FxThreadWatchdog;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * What editors feel (docs/benchmarks.md): in the real editor's window ({@link WindowStopwatch}), the time
 * from F5 to the list drawn and from Ctrl+Enter to the next article shown, first with nobody else
 * working (the baseline) and then while 32 simulated editors work through the same review
 * services in background threads ({@link EditorSessions}, {@link Load}: claim 5, approve each, at
 * full speed, each with a database account and a pool of its own), and last while 1,000 signed-in
 * desktop clients run in a JVM of their own ({@link ClientNewsroom}: 50 working as the 32 editors do,
 * 950 idle and away from the window). Each loaded phase is reported with its ratios to the first
 * ({@link EditorFeelReport}). Not a test: a main on the test
 * class path ({@code mvn -q test-compile exec:exec@editor-feel-benchmark}) that prints the figures
 * and rewrites its block of docs/benchmarks.md. JavaFX runs on Monocle's headless screen with
 * software rendering (the pom sets it), as the TestFX tests do.
 *
 * <p>One repetition: F5 on an empty list (claims 5), then for each article Ctrl+1 and Ctrl+Enter;
 * the last Ctrl+Enter has no next article and is not timed. The decisions are sent after their
 * 5-second undo window, as in the app; the next repetition starts when the window holds nothing.
 */
public final class EditorFeelBenchmark {

    static final int EDITORS = Integer.getInteger("bench.editors", 32);
    /** Desktop clients signed in for the last phase, in a JVM of their own; 0 leaves the phase out. */
    static final int CLIENTS = Integer.getInteger("bench.clients", 1000);
    static final int CLIENTS_WORKING = Integer.getInteger("bench.working", 50);
    // 30 keeps the three phases, the set-up and the 1,000 sign-ins within about 20 minutes
    static final int REPETITIONS = Integer.getInteger("bench.repetitions", 30);
    static final int WARMUP = Integer.getInteger("bench.warmupRepetitions", 3);
    // Enough for the 32 editors' phase and the 50 working clients' (since V12 and V13 the editors
    // decide 800-950 articles a second on two cores; a phase of 60 repetitions lasts 5-6 minutes, and
    // 100,000 ran out after about two minutes of it, 2026-11-25), with room for 60 repetitions.
    static final int ARTICLES = Integer.getInteger("bench.articles", 500_000);
    static final String WINDOW_EDITOR = "feel-ann";

    /** One phase's figures; {@code load} is null for the window alone. */
    record Phase(String label, List<WindowStopwatch.Sample> f5, List<WindowStopwatch.Sample> next, long maxStallMillis,
                 long stallsOver50, double pulsesPerSecond, double serverCpuMsPerSecond, Alongside.Figures load,
                 String loadAverageBefore, String loadAverageAfter, double seconds) {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-feel-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(work.resolve("server"), "127.0.0.1",
                0, EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        CountDownLatch fxStarted = new CountDownLatch(1);
        Platform.startup(fxStarted::countDown);
        fxStarted.await();
        Preferences prefs = Preferences.userRoot().node("copydesk-bench/editor-feel");
        try {
            String url = server.jdbcUrl("bench_feel");
            dropDatabase(server, url);
            try (Database admin = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                    DataSources.PoolSize.of(4), Database.SchemaAction.MIGRATE, null)) {
                long t0 = System.nanoTime();
                newsroom(admin);
                say("%,d articles on %s in %.1f s", ARTICLES, EditorSessions.DESK, (System.nanoTime() - t0) / 1e9);
                EditorSessions others = EditorSessions.create(admin, url, server, EDITORS, EditorSessions.Accounts.OWN);
                char[] password = "feel-ann-bench-pw".toCharArray();
                new AccountAdministration(admin.dsl()).createAccount(WINDOW_EDITOR, password);
                if (CLIENTS > 0) {
                    clientAccounts(admin.dsl());
                }
                try (Database own = Database.open(url, WINDOW_EDITOR, password, null, DataSources.PoolSize.desktop(),
                        Database.SchemaAction.NONE, null)) {
                    ReviewSession session = new ReviewSession(own, ReviewSession.Options.defaults());
                    Editor ann = new ReviewSession(admin, ReviewSession.Options.defaults()).newsroom().requireEditor(WINDOW_EDITOR);
                    ReleaseService releaseService = session.releaseService(released -> { }); // as the app runs it
                    releaseService.start();
                    WindowStopwatch window = WindowStopwatch.open(session, ann, prefs);
                    try {
                        waitUntil("the window's first Get articles", () -> window.shownCount() == ann.capacity());
                        window.approveAll();
                        waitForDecisionsSent(admin.dsl());
                        run(window, admin.dsl(), WARMUP, null); // JIT, CSS and cell caches
                        idlePulsesPerSecond = idlePulses(window, admin.dsl());
                        List<Phase> phases = new ArrayList<>();
                        phases.add(measure("alone (baseline)", window, admin.dsl(), null));
                        if (EDITORS > 0) {
                            phases.add(measure(EDITORS + " editors working", window, admin.dsl(), Alongside.editors(others)));
                        }
                        if (CLIENTS > 0) {
                            phases.add(withClients(window, admin.dsl(), url));
                        }
                        String table = EditorFeelReport.render(phases, idlePulsesPerSecond);
                        System.out.println();
                        System.out.println(table);
                        if (!Boolean.getBoolean("bench.noReport")) {
                            GeneratedBlock.write(report, "editor-feel-benchmark", "EditorFeelBenchmark", table);
                            say("wrote %s", report.toAbsolutePath());
                        }
                    } finally {
                        window.close();
                        releaseService.close();
                        others.close();
                    }
                }
            }
        } finally {
            prefs.removeNode();
            Platform.exit();
            server.close();
        }
        System.exit(0);
    }

    /**
     * The window measured while {@value #CLIENTS} desktop clients run in a JVM of their own, signed in
     * before the phase ({@link ClientNewsroom.InOwnJvm}): {@value #CLIENTS_WORKING} working, the rest idle
     * and away from the window. Signed out after it.
     */
    private static Phase withClients(WindowStopwatch window, DSLContext admin, String url) throws Exception {
        long t0 = System.nanoTime();
        try (ClientNewsroom.InOwnJvm clients = ClientNewsroom.InOwnJvm.start(url, EditorSessions.DESK, WORKING_PREFIX,
                CLIENTS_WORKING, IDLE_PREFIX, CLIENTS - CLIENTS_WORKING)) {
            ClientNewsroom.InOwnJvm.SignIns signIns = clients.signIns();
            say("%d clients signed in, %d refused, in %.0f s", signIns.signedIn(), signIns.refused(), (System.nanoTime() - t0) / 1e9);
            ClaimBenchmark.sleep(Long.getLong("bench.clientsSettleSeconds", 30) * 1000); // the sign-ins' first reads are over
            return measure(String.format(Locale.ROOT, "%,d clients: %d working, %d idle", CLIENTS, CLIENTS_WORKING,
                    CLIENTS - CLIENTS_WORKING), window, admin, Alongside.clients(clients));
        }
    }

    private static Phase measure(String label, WindowStopwatch window, DSLContext admin, Alongside load) throws Exception {
        String averageBefore = loadAverage();
        if (load != null) {
            load.start();
        }
        FxThreadWatchdog watchdog = new FxThreadWatchdog(50);
        long pulsesBefore;
        long t0;
        Map<String, Long> countersBefore;
        Samples samples = new Samples();
        try {
            if (load != null) {
                run(window, admin, 1, null); // let the load settle
                load.measure();
            }
            countersBefore = ServerCounters.read(admin);
            pulsesBefore = window.pulses();
            t0 = System.nanoTime();
            run(window, admin, REPETITIONS, samples);
        } catch (RuntimeException e) {
            // the editors' threads would go on working (and the JVM with them) after the run gave up
            watchdog.close();
            if (load != null) {
                load.abort();
            }
            throw e;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double pulsesPerSecond = (window.pulses() - pulsesBefore) / seconds;
        double serverCpu = (ServerCounters.read(admin).get("cpu_server_us") - countersBefore.get("cpu_server_us")) / 1000.0 / seconds;
        watchdog.close();
        String averageAfter = loadAverage();
        Alongside.Figures figures = load == null ? null : load.stop(seconds);
        Phase phase = new Phase(label, samples.f5, samples.next, watchdog.maxStallMillis(), watchdog.stallsOverThreshold(),
                pulsesPerSecond, serverCpu, figures, averageBefore, averageAfter, seconds);
        say("%-22s F5 p50 %6.1f p99 %6.1f ms | Ctrl+Enter p50 %6.1f p99 %6.1f ms | FX stall max %d ms | load %.0f rows/s | %.0f s",
                label, ms(phase.f5(), WindowStopwatch.Sample::shownNanos, 0.5), ms(phase.f5(), WindowStopwatch.Sample::shownNanos, 0.99),
                ms(phase.next(), WindowStopwatch.Sample::shownNanos, 0.5), ms(phase.next(), WindowStopwatch.Sample::shownNanos, 0.99),
                phase.maxStallMillis(), figures == null ? 0 : figures.rowsPerSecond(), seconds);
        return phase;
    }

    private static double idlePulsesPerSecond;

    /** Pulses per second while the editor reads (5 articles held, nothing pressed): what the window redraws on its own. */
    private static double idlePulses(WindowStopwatch window, DSLContext admin) {
        window.getArticles();
        long before = window.pulses();
        long seconds = Long.getLong("bench.idleSeconds", 5);
        ClaimBenchmark.sleep(seconds * 1000);
        double perSecond = (window.pulses() - before) / (double) seconds;
        window.approveAll();
        waitForDecisionsSent(admin);
        return perSecond;
    }

    private static final class Samples {
        final List<WindowStopwatch.Sample> f5 = new ArrayList<>();
        final List<WindowStopwatch.Sample> next = new ArrayList<>();
    }

    /** {@code repetitions} times: F5, then approve each article; samples kept when {@code into} is given. */
    private static void run(WindowStopwatch window, DSLContext admin, int repetitions, Samples into) {
        for (int i = 0; i < repetitions; i++) {
            requireWaitingWork(admin);
            WindowStopwatch.Sample f5 = window.getArticles();
            List<WindowStopwatch.Sample> next = new ArrayList<>();
            WindowStopwatch.Sample s;
            while ((s = window.approveAndShowNext()) != null) {
                next.add(s);
            }
            if (into != null) {
                into.f5.add(f5);
                into.next.addAll(next);
            }
            waitForDecisionsSent(admin);
        }
    }

    /**
     * Stops with the reason when the editors working alongside have (nearly) emptied the queue: F5
     * would find nothing and the stopwatch would wait for a list that cannot come. A bounded read of
     * the free rows' index, not a count of the whole queue.
     */
    private static void requireWaitingWork(DSLContext admin) {
        int needed = EditorSessions.CAPACITY * (Math.max(EDITORS, CLIENTS_WORKING) + 1);
        int waiting = admin.fetchCount(admin.select(ARTICLE.ID).from(ARTICLE)
                .where(ARTICLE.STATUS.eq(ArticleStatus.queued)).and(ARTICLE.LOCKED_BY.isNull())
                .limit(needed));
        if (waiting < needed) {
            throw new IllegalStateException("the queue ran out (fewer than " + needed + " free articles wait): the editors "
                    + "or clients working alongside decided the rest; run again with a larger -Dbench.articles (now " + ARTICLES + ")");
        }
    }

    /** Until the window's decisions have left their undo window and been recorded: it holds nothing. */
    private static void waitForDecisionsSent(DSLContext admin) {
        waitUntil("the window's decisions to be sent", () -> admin.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(WINDOW_EDITOR)) == 0);
        ClaimBenchmark.sleep(200); // their outcomes reach the window's FX thread
    }

    private static void waitUntil(String what, BooleanSupplier done) {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("waited 60 s for " + what);
            }
            ClaimBenchmark.sleep(50);
        }
    }

    // --- set-up ---------------------------------------------------------------------------------

    private static void dropDatabase(EmbeddedServer server, String url) throws Exception {
        try (var c = DriverManager.getConnection(url, EmbeddedServer.ROOT_USER, new String(server.rootPassword()));
             var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS bench_feel");
        }
    }

    private static final String WORKING_PREFIX = "feel-work-";
    private static final String IDLE_PREFIX = "feel-idle-";

    /**
     * The clients' editors on the window's desk, with accounts of their own; the accounts a run before
     * left on the server (it outlives the database) are dropped first.
     */
    private static void clientAccounts(DSLContext root) {
        for (String user : root.fetchValues("select user from mysql.user where user like 'feel-work-%' or user like 'feel-idle-%'")
                .stream().map(String::valueOf).toList()) {
            root.execute("DROP USER '" + user + "'@'%'");
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            ids.add(i < CLIENTS_WORKING ? WORKING_PREFIX + i : IDLE_PREFIX + (i - CLIENTS_WORKING));
        }
        ClientNewsroom.addEditors(root, EditorSessions.DESK, ids);
    }

    /**
     * One desk of waiting articles of a page or so each (the reader lays out real text), enough for
     * the 32 editors' whole phase; the window's editor works the same desk, competing for the same rows.
     */
    private static void newsroom(Database admin) {
        ReviewSession session = new ReviewSession(admin, ReviewSession.Options.defaults());
        session.newsroom().addDesk(EditorSessions.DESK, "News", Duration.ofMinutes(30));
        session.newsroom().addEditor(WINDOW_EDITOR, "Ann (the measured window)", Role.EDITOR, EditorSessions.CAPACITY,
                List.of(EditorSessions.DESK));
        String text = "\n\n" + "The council met on Tuesday evening to discuss the budget for the coming year. ".repeat(20);
        DSLContext dsl = admin.dsl();
        for (int start = 0; start < ARTICLES; start += 1000) {
            var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY,
                    ARTICLE.AVAILABLE_AT);
            for (int n = start; n < Math.min(ARTICLES, start + 1000); n++) {
                String id = "feel-" + n;
                insert = insert.values(DSL.val(id), DSL.val(EditorSessions.DESK), DSL.val("Article " + n), DSL.val(id + text),
                        ServerClock.plus(ServerClock.now(), Duration.ofSeconds(n - ARTICLES)));
            }
            insert.execute();
        }
        dsl.execute("analyze table article");
    }

    // --- report ---------------------------------------------------------------------------------

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }

    static double ms(List<WindowStopwatch.Sample> samples, ToLongFunction<WindowStopwatch.Sample> f, double q) {
        long[] sorted = samples.stream().mapToLong(f).sorted().toArray();
        return ClaimBenchmark.percentile(sorted, q) / 1e6;
    }

    private static void say(String format, Object... args) {
        ClaimBenchmark.say(format, args);
    }
}
