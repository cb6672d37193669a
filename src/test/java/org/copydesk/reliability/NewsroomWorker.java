package org.copydesk.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.Assignment;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;

/**
 * One newsroom client process for {@link NewsroomFaultRun}: a thread per simulated editor using the
 * real {@link ReviewSession} (claim, read, save a draft, decide or give back), plus the release
 * service every desktop client runs. Every failure (killed connection, server away, dropped
 * packets) is caught, backed off and retried; a decision is retried with the same request id, as
 * the app does, so a retry after a lost reply must not apply it twice.
 *
 * <p>Each editor signs in with their own database account (password {@link #passwordOf}), so the
 * faults are survived under the real rules: the database's operations, not root.
 *
 * <p>Arguments: jdbc-url name editor,editor,… ttl-millis release-interval-millis stop-file.
 * It prints what the run checks afterwards, each line written before or after the call it describes:
 * <pre>
 * @@ DRAFT article editor text      after the draft was saved
 * @@ SUBMIT request article editor verdict   before the first attempt
 * @@ OUTCOME request Recorded|AlreadyRecorded|Lost|Refused   after the call returned
 * @@ COUNTS …                       at a normal end
 * </pre>
 */
public final class NewsroomWorker {

    static final String MARK = "@@ ";

    private final Duration ttl;
    private final Path stopFile;
    private final LongAdder claims = new LongAdder();
    private final LongAdder decided = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder alreadyRecorded = new LongAdder();
    private final LongAdder released = new LongAdder();

    private NewsroomWorker(Duration ttl, Path stopFile) {
        this.ttl = ttl;
        this.stopFile = stopFile;
    }

    /** The test password of a simulated editor's account. */
    static String passwordOf(String editor) {
        return editor + "-fault-run";
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String name = args[1];
        List<String> editors = Arrays.asList(args[2].split(","));
        Duration ttl = Duration.ofMillis(Long.parseLong(args[3]));
        Duration releaseInterval = Duration.ofMillis(Long.parseLong(args[4]));
        Path stopFile = Path.of(args[5]);
        NewsroomWorker worker = new NewsroomWorker(ttl, stopFile);
        List<ReviewSession> sessions = new ArrayList<>();
        try {
            for (String editor : editors) {
                // one small pool per person, as each person's desktop client has
                Database db = openRetrying(url, editor, passwordOf(editor), 2, stopFile);
                sessions.add(new ReviewSession(db, new ReviewSession.Options(null, releaseInterval)));
            }
            try (ReleaseService releaser = sessions.get(0).releaseService(l -> { })) {
                releaser.start();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < editors.size(); i++) {
                    String editor = editors.get(i);
                    ReviewSession session = sessions.get(i);
                    Thread t = new Thread(() -> worker.work(session, editor), name + "-" + editor);
                    t.start();
                    threads.add(t);
                }
                System.out.println(MARK + "STARTED " + name + " zone " + TimeZone.getDefault().getID());
                for (Thread t : threads) {
                    t.join();
                }
            }
            System.out.println(MARK + "COUNTS claims=" + worker.claims + " decided=" + worker.decided + " released="
                    + worker.released + " retries=" + worker.retries + " lost=" + worker.lost + " alreadyRecorded="
                    + worker.alreadyRecorded);
        } finally {
            sessions.forEach(ReviewSession::close);
        }
        System.exit(0);
    }

    private static Database openRetrying(String url, String user, String password, int pool, Path stopFile)
            throws InterruptedException {
        while (true) {
            try {
                return Database.open(url, user, password.toCharArray(), null, DataSources.PoolSize.of(pool),
                        Database.SchemaAction.NONE, null);
            } catch (RuntimeException e) {
                if (Files.exists(stopFile)) {
                    throw e;
                }
                Thread.sleep(500); // the server may be restarting
            }
        }
    }

    private boolean stopped() {
        return Files.exists(stopFile);
    }

    private void work(ReviewSession session, String editor) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            while (!stopped()) {
                Assignment assignment = retrying(() -> session.queue().claim(editor, null, ttl));
                claims.add(assignment.claimed());
                if (assignment.articles().isEmpty()) {
                    Thread.sleep(100 + random.nextInt(300));
                    continue;
                }
                for (HeldArticle article : assignment.articles()) {
                    if (stopped()) {
                        return;
                    }
                    review(session, editor, article, random);
                }
            }
        } catch (Stopped | InterruptedException e) {
            // the run is over
        }
    }

    private void review(ReviewSession session, String editor, HeldArticle article, ThreadLocalRandom random)
            throws InterruptedException {
        Thread.sleep(100 + random.nextInt(300)); // reading
        int roll = random.nextInt(100);
        Verdict verdict = roll < 15 ? Verdict.SEND_BACK : roll < 27 ? Verdict.REJECT : Verdict.APPROVE;
        String text = "notes of " + editor + " on " + article.id() + " #" + UUID.randomUUID().toString().substring(0, 8);
        retrying(() -> {
            session.drafts().save(article.id(), editor, verdict, text);
            return null;
        });
        System.out.println(MARK + "DRAFT " + article.id() + " " + editor + " " + text);
        if (roll >= 92) {
            retrying(() -> session.queue().release(article));
            released.increment();
            return;
        }
        UUID request = UUID.randomUUID();
        System.out.println(MARK + "SUBMIT " + request + " " + article.id() + " " + editor + " " + verdict.code());
        DecisionOutcome outcome = retrying(() -> session.decisions().submit(
                new DecisionRequest(request, article.id(), article.lease(), verdict, text)));
        System.out.println(MARK + "OUTCOME " + request + " " + outcome.getClass().getSimpleName());
        if (outcome instanceof DecisionOutcome.Recorded) {
            decided.increment();
        } else if (outcome instanceof DecisionOutcome.AlreadyRecorded) {
            decided.increment();
            alreadyRecorded.increment();
        } else if (outcome instanceof DecisionOutcome.Lost) {
            lost.increment();
        } else if (outcome instanceof DecisionOutcome.Refused r) {
            throw new IllegalStateException("refused: " + r.message());
        }
    }

    /** Runs {@code call} until it answers, backing off on every failure; gives up only when the run stops. */
    private <T> T retrying(Supplier<T> call) {
        long backoff = 50;
        while (true) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                retries.increment();
                if (stopped()) {
                    throw new Stopped();
                }
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new Stopped();
                }
                backoff = Math.min(2_000, backoff * 2);
            }
        }
    }

    /** The stop file appeared while a call was failing. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(null, null, false, false);
        }
    }
}
