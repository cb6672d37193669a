package org.copydesk.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.WatchedSchemaChange;
import org.copydesk.lease.RetryMetrics;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewQueue;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;

/**
 * The hostile-editor soak (a benchmark main, not a test): one editor account runs every lock-out and
 * exhaustion technique we know in a loop, several at once, while honest editors claim, renew and
 * decide through the product's services, each client running its release service (which runs the
 * session sweep) as the app does. Reports the share of honest claims and renewals that succeeded,
 * the longest any honest call took, the claim p99, and rows lost or doubled; and, to say when and
 * why, the longest calls, the sweep's endings and the honest sessions one look took for lock holders
 * ({@link SoakWatch}).
 *
 * <p>Server: the tests' ({@code COPYDESK_TEST_DB_URL} and friends, else the embedded MariaDB).
 * Properties: {@code bench.seconds} (600), {@code bench.honest} (20), {@code bench.suspend} (the
 * suspension in seconds the sweep gives an account that held locks; default: the schema's),
 * {@code bench.out} (a markdown file for the figures), {@code bench.techniques} (the hostile techniques to run,
 * comma-separated; default all), {@code bench.schemaChanges} (false: no schema change every 20 s).
 *
 * <p>Run: {@code mvn -q test-compile exec:exec@hostile-editor-soak -Dbench.args="-Dbench.seconds=600"}
 */
public final class HostileEditorSoak {

    private static final String DESK = "news";
    private static final String HOSTILE = "soak_mallory";
    private static final int CAPACITY = 5;
    /** A person whose password the admin loop sets over and over: account administration must keep working. */
    private static final String ADMIN_PROBE = "soak_probe";

    private final Duration length = Duration.ofSeconds(Long.getLong("bench.seconds", 600));
    private final int honestCount = Integer.getInteger("bench.honest", 20);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Tally claims = new Tally();
    private final Tally renewals = new Tally();
    private final Tally decisions = new Tally();
    private final List<Long> claimMillis = Collections.synchronizedList(new ArrayList<>());
    private final Tally administration = new Tally();
    private final Tally schemaChanges = new Tally();
    private HostileEditor hostile;
    private final ConcurrentHashMap<Long, String> decidedByClient = new ConcurrentHashMap<>();
    private final AtomicLong doubleDecisionsSeen = new AtomicLong();
    private final SoakWatch watch = new SoakWatch();
    private String url;
    /** The server's UTC time when the editors began (the sweep's endings are timed on it). */
    private LocalDateTime serverStarted;

    /** Successes, failures and the longest call of one kind of honest call. */
    private static final class Tally {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong longestMillis = new AtomicLong();
        final ConcurrentHashMap<String, AtomicLong> why = new ConcurrentHashMap<>();

        void record(boolean success, long millis, String failure) {
            (success ? ok : failed).incrementAndGet();
            longestMillis.accumulateAndGet(millis, Math::max);
            if (!success) {
                why.computeIfAbsent(failure, k -> new AtomicLong()).incrementAndGet();
            }
        }

        String share() {
            long total = ok.get() + failed.get();
            return String.format(Locale.ROOT, "%.2f %% of %,d", total == 0 ? 0.0 : 100.0 * ok.get() / total, total);
        }
    }

    public static void main(String[] args) throws Exception {
        new HostileEditorSoak().run();
        System.exit(0);
    }

    private void run() throws Exception {
        try (TestDatabase db = TestDatabase.create("hostile_soak", 4)) {
            url = db.endpoint().accountUrl(db.name());
            DSLContext owner = db.dsl();
            List<String> honest = newsroom(owner);
            if (System.getProperty("bench.suspend") != null) {
                owner.execute("update session_limit set suspend_seconds = " + Integer.getInteger("bench.suspend"));
            }
            String limits = owner.fetch("select * from session_limit").formatCSV(false).strip();
            List<Thread> threads = new ArrayList<>();
            List<AutoCloseable> clients = new ArrayList<>();
            for (String editor : honest) {
                Database pool = Database.open(url, editor, password(editor), null, DataSources.PoolSize.of(2),
                        Database.SchemaAction.NONE, null);
                ReviewSession session = new ReviewSession(pool, ReviewSession.Options.defaults());
                ReleaseService release = session.releaseService(l -> { });
                release.start();
                clients.add(release);
                clients.add(pool);
                threads.add(thread("honest-" + editor, () -> honestEditor(session, editor)));
            }
            hostile = new HostileEditor(url, HOSTILE, new String(password(HOSTILE)), running::get);
            for (HostileEditor.Technique t : techniques()) {
                threads.add(thread("hostile-" + t, () -> hostile.attack(t)));
            }
            threads.add(thread("watch", () -> watchSessions(owner)));
            threads.add(thread("admin", () -> administer(new AccountAdministration(owner))));
            if (Boolean.parseBoolean(System.getProperty("bench.schemaChanges", "true"))) {
                threads.add(thread("schema", () -> changeSchema(db.database().dataSource())));
            }
            Instant started = Instant.now();
            serverStarted = owner.fetchOne("select utc_timestamp(6)").get(0, LocalDateTime.class);
            watch.start();
            threads.forEach(Thread::start);
            Thread.sleep(length.toMillis());
            running.set(false);
            for (Thread t : threads) {
                t.join(30_000);
            }
            for (AutoCloseable c : clients) {
                c.close();
            }
            String report = report(owner, db, limits, Duration.between(started, Instant.now()));
            System.out.println(report);
            String out = System.getProperty("bench.out");
            if (out != null) {
                Files.writeString(Path.of(out), report);
            }
        }
    }

    /** The techniques named by {@code bench.techniques} (comma-separated), else all of them. */
    private static List<HostileEditor.Technique> techniques() {
        String named = System.getProperty("bench.techniques", "");
        return named.isBlank() ? List.of(HostileEditor.Technique.values())
                : java.util.Arrays.stream(named.split(",")).map(String::strip).map(HostileEditor.Technique::valueOf).toList();
    }

    private List<String> newsroom(DSLContext owner) {
        Newsroom n = new Newsroom(owner);
        n.addDesk(DESK, "News", Duration.ofMinutes(30));
        AccountAdministration accounts = new AccountAdministration(owner);
        List<String> honest = new ArrayList<>();
        for (int i = 0; i < honestCount; i++) {
            String editor = "soak_ed" + i;
            n.addEditor(editor, "Editor " + i, Role.EDITOR, CAPACITY, List.of(DESK));
            accounts.createAccount(editor, password(editor));
            honest.add(editor);
        }
        n.addEditor(HOSTILE, "Mallory", Role.EDITOR, CAPACITY, List.of(DESK));
        accounts.createAccount(HOSTILE, password(HOSTILE));
        // accounts are the server's, not the database's: an earlier soak's suspension may still lock them
        for (String account : honest) {
            owner.execute("call unlock_account(?)", account);
        }
        owner.execute("call unlock_account(?)", HOSTILE);
        n.addEditor(ADMIN_PROBE, "Probe", Role.EDITOR, CAPACITY, List.of(DESK));
        accounts.createAccount(ADMIN_PROBE, password(ADMIN_PROBE));
        // enough waiting work that the queue never runs dry: ~2 decisions a second per editor
        Fixtures.articles(owner, DESK, (int) Math.max(2_000, honestCount * 3 * length.toSeconds()), 3, -60);
        return honest;
    }

    private static char[] password(String account) {
        return (account + "-soak-pw").toCharArray();
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    // --- the honest editors: the app's own calls ------------------------------------------------

    private void honestEditor(ReviewSession session, String editor) {
        List<HeldArticle> held = new ArrayList<>();
        while (running.get()) {
            long began = watch.now();
            Retries retries = Retries.from(session.retryMetrics());
            try {
                held = new ArrayList<>(session.queue().claim(editor).articles());
                long millis = watch.now() - began;
                claimMillis.add(millis);
                record(claims, "claim", editor, began, retries, held.size() == CAPACITY, "held " + held.size() + " of " + CAPACITY);
            } catch (RuntimeException e) {
                record(claims, "claim", editor, began, retries, false, reason(e));
            }
            if (!held.isEmpty()) {
                began = watch.now();
                retries = Retries.from(session.retryMetrics());
                try {
                    ReviewQueue.Renewal renewal = session.queue().renew(editor, held);
                    record(renewals, "renewal", editor, began, retries, renewal.lost().isEmpty(), "lost " + renewal.lost().size());
                    held = new ArrayList<>(renewal.renewed());
                } catch (RuntimeException e) {
                    record(renewals, "renewal", editor, began, retries, false, reason(e));
                }
            }
            if (!held.isEmpty()) {
                HeldArticle first = held.get(0);
                began = watch.now();
                retries = Retries.from(session.retryMetrics());
                try {
                    DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), first.id(),
                            first.lease(), Verdict.APPROVE, "fine"));
                    boolean recorded = outcome instanceof DecisionOutcome.Recorded;
                    // a refusal by its reason and the database's words, so a run says why, not only that
                    String how = outcome instanceof DecisionOutcome.Refused refused
                            ? "Refused " + refused.reason() + (refused.databaseWords() == null ? "" : ": " + refused.databaseWords())
                            : outcome.getClass().getSimpleName();
                    record(decisions, "decision", editor, began, retries, recorded, how);
                    if (recorded && decidedByClient.put(first.id(), editor) != null) {
                        doubleDecisionsSeen.incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    record(decisions, "decision", editor, began, retries, false, reason(e));
                }
            }
            pause(300 + ThreadLocalRandom.current().nextInt(400));
        }
    }

    /** Counts one honest call that began at {@code began} (the watch's clock) and ended now. */
    private void record(Tally tally, String kind, String editor, long began, boolean success, String outcome) {
        record(tally, kind, editor, began, Retries.NONE, success, outcome);
    }

    /** Counts one honest call, and tells the watch what its session retried meanwhile. */
    private void record(Tally tally, String kind, String editor, long began, Retries retries, boolean success, String outcome) {
        long millis = watch.now() - began;
        tally.record(success, millis, outcome);
        watch.call(kind, editor, began, millis, (success ? "ok" : "failed: " + outcome) + retries.since());
    }

    /** A session's retry counts before a call, to say what the call retried (its session runs one call at a time). */
    private record Retries(RetryMetrics metrics, long retries, long lockWaitTimeouts, long deadlocks) {
        static final Retries NONE = new Retries(null, 0, 0, 0);

        static Retries from(RetryMetrics m) {
            return new Retries(m, m.retries(), m.lockWaitTimeouts(), m.deadlocks());
        }

        String since() {
            if (metrics == null || metrics.retries() == retries) {
                return "";
            }
            return String.format(Locale.ROOT, ", retried %d times (%d lock wait timeouts, %d deadlocks)", metrics.retries() - retries,
                    metrics.lockWaitTimeouts() - lockWaitTimeouts, metrics.deadlocks() - deadlocks);
        }
    }

    /** Looks at the honest sessions from the owner's account every 250 ms (see SoakWatch). */
    private void watchSessions(DSLContext owner) {
        while (running.get()) {
            try {
                watch.look(owner, "soak\\_ed%");
            } catch (RuntimeException e) {
                hostile.count("watch: " + reason(e));
            }
            pause(250);
        }
    }

    /**
     * An admin at work meanwhile: sets a person's password every 3 s (each goes through the owner's
     * account statements, which a hostile session once kept from running by filling a server-wide count).
     */
    private void administer(AccountAdministration accounts) {
        while (running.get()) {
            long began = watch.now();
            try {
                accounts.setPassword(ADMIN_PROBE, password(ADMIN_PROBE));
                record(administration, "set password", "admin", began, true, "");
            } catch (RuntimeException e) {
                record(administration, "set password", "admin", began, false, reason(e));
            }
            pause(3_000);
        }
    }

    /**
     * A schema change every 20 s, made as an upgrade during the day makes its statements
     * ({@link WatchedSchemaChange}: the migration's watch). It needs every session's metadata locks
     * on the table, so a session holding one (a HANDLER, an idle transaction) would hold it up, and
     * the editors' calls queued behind it with it; the watch ends such a session of the newsroom.
     */
    private void changeSchema(DataSource owner) {
        long round = 0;
        while (running.get()) {
            pause(Long.getLong("bench.schemaEvery", 20) * 1000);
            long began = watch.now();
            try {
                String change = "ALTER TABLE " + System.getProperty("bench.schemaTable", "article") + " COMMENT = 'soak " + ++round + "'";
                WatchedSchemaChange.run(owner, change).forEach(line -> hostile.count("schema change: " + line.replaceAll("\\d+", "N")));
                record(schemaChanges, SoakWatch.SCHEMA_CHANGE, "owner", began, true, "");
            } catch (SQLException | RuntimeException e) {
                record(schemaChanges, SoakWatch.SCHEMA_CHANGE, "owner", began, false, reason(e));
            }
        }
    }

    private static String reason(Throwable e) {
        String m = String.valueOf(e.getMessage());
        return m.length() > 80 ? m.substring(0, 80) : m;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- the figures ------------------------------------------------------------------------

    private String report(DSLContext owner, TestDatabase db, String limits, Duration took) {
        List<Long> sorted = new ArrayList<>(claimMillis);
        Collections.sort(sorted);
        long p99 = sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
        long p50 = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        long doubled = owner.fetchOne("select count(*) from (select article_id from decision group by article_id having count(*) > 1) d")
                .get(0, Long.class);
        long recordedInDb = owner.fetchOne("select count(*) from decision where editor_id like 'soak\\_ed%'").get(0, Long.class);
        long lost = decidedByClient.size() - owner.fetchOne("select count(*) from decision where editor_id like 'soak\\_ed%' and"
                + " article_id in (select id from article where status = 'approved')").get(0, Long.class);
        String ended = owner.fetch("select reason, count(*) n, sum(suspended_until is not null) suspended from ended_session"
                + " where account = ? group by reason", HOSTILE).formatCSV(false).strip().replace('\n', ';');
        String honestEnded = owner.fetch("select account, reason, count(*) n, sum(suspended_until is not null) suspended"
                + " from ended_session where account <> ? group by account, reason", HOSTILE).formatCSV(false).strip().replace('\n', ';');
        String endings = owner.fetch("select account, reason, round(timestampdiff(microsecond, ?, ended_at) / 1e6, 1) at_s"
                + " from ended_session order by ended_at, connection_id", serverStarted).formatCSV(false).strip().replace('\n', ';');
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Hostile-editor soak on %s, %d honest editors, %d s (%s), limits: %s%n%n",
                serverOf(owner), honestCount, took.toSeconds(), Instant.now(), limits.replace('\n', ' ')));
        md.append("| figure | value | target |\n|---|---|---|\n");
        md.append("| honest claims that got a full batch | ").append(claims.share()).append(" | >= 99 % |\n");
        md.append("| honest renewals that renewed every lease | ").append(renewals.share()).append(" | >= 99 % |\n");
        md.append("| honest decisions recorded | ").append(decisions.share()).append(" | |\n");
        md.append("| an admin's password changes that worked | ").append(administration.share()).append(" | 100 % |\n");
        md.append(String.format(Locale.ROOT, "| schema changes that went through (every 20 s) | %s; longest %,d ms | |%n",
                schemaChanges.share(), schemaChanges.longestMillis.get()));
        md.append(String.format(Locale.ROOT, "| longest honest call (claim / renew / decide) | %,d / %,d / %,d ms | < 10,000 ms |%n",
                claims.longestMillis.get(), renewals.longestMillis.get(), decisions.longestMillis.get()));
        md.append(String.format(Locale.ROOT, "| honest claim p50 / p99 | %d / %d ms | |%n", p50, p99));
        md.append(String.format(Locale.ROOT, "| rows lost / doubled | %d / %d (decisions the clients saw recorded: %,d; in the"
                + " database: %,d; doubled as the clients saw them: %d) | 0 / 0 |%n", Math.max(0, lost), doubled,
                decidedByClient.size(), recordedInDb, doubleDecisionsSeen.get()));
        md.append("| sessions of the hostile account the sweep ended (reason, count, suspended) | ").append(ended).append(" | |\n");
        md.append("| honest sessions the sweep ended (account, reason, count, suspended) | ")
                .append(honestEnded.isEmpty() ? "none" : honestEnded).append(" | none |\n\n");
        md.append("Sessions the sweep ended (account, reason, seconds after the editors began): ").append(endings).append("\n\n");
        md.append(watch.report()).append('\n');
        md.append("Why honest calls failed: claims ").append(claims.why).append("; renewals ").append(renewals.why)
                .append("; decisions ").append(decisions.why).append("; administration ").append(administration.why)
                .append("; schema changes ").append(schemaChanges.why).append("\n\n");
        md.append("What the hostile editor did (per technique: what happened, how often):\n\n");
        hostile.happened().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .forEach(e -> md.append("- ").append(e.getKey()).append(": ").append(e.getValue().get()).append('\n'));
        return md.toString();
    }

    private static String serverOf(DSLContext owner) {
        return owner.fetchOne("select version()").get(0, String.class);
    }
}
