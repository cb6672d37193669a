package org.copydesk.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.RetryMetrics;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;

/**
 * The full editor path: real {@code editor} rows on the bench's desk (capacity 5), each
 * working through the review services as the app does: {@code queue().claim(editor)}, then
 * {@code decisions().submit(…)} approving each article held. Everything goes through the
 * database's operations ({@code claim_articles}, {@code decide_article}), which check who calls
 * and write history.
 *
 * <p>{@link Accounts#OWN}: every editor signs in with a database account of their own, created by
 * {@link AccountAdministration#createAccount} with the editor role's grants, and gets a pool of one
 * connection (the security model as shipped). {@link Accounts#ADMIN}: one pool of the
 * administrator's account, naming the editor in {@code p_as}.
 */
final class EditorSessions implements AutoCloseable {

    enum Accounts { OWN, ADMIN }

    static final String DESK = "news";
    static final int CAPACITY = ClaimBenchmark.BATCH;

    private final Accounts accounts;
    private final List<String> editors = new ArrayList<>();
    private final List<Database> pools = new ArrayList<>();

    private EditorSessions(Accounts accounts) {
        this.accounts = accounts;
    }

    /** Creates {@code count} editors (and their accounts) and opens their pools, once per run. */
    static EditorSessions create(Database admin, String url, EmbeddedServer server, int count, Accounts accounts) {
        EditorSessions sessions = new EditorSessions(accounts);
        Newsroom newsroom = new Newsroom(admin.dsl());
        AccountAdministration administration = new AccountAdministration(admin.dsl());
        try {
            for (int i = 0; i < count; i++) {
                String id = "bench-ed" + i;
                newsroom.addEditor(id, "Bench editor " + i, Role.EDITOR, CAPACITY, List.of(DESK));
                sessions.editors.add(id);
                if (accounts == Accounts.OWN) {
                    char[] password = passwordOf(id);
                    administration.createAccount(id, password);
                    sessions.pools.add(Database.open(url, id, password, null, new DataSources.PoolSize(1, 1),
                            Database.SchemaAction.NONE, null));
                }
            }
            if (accounts == Accounts.ADMIN) {
                sessions.pools.add(Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                        new DataSources.PoolSize(count, count), Database.SchemaAction.NONE, null));
            }
            return sessions;
        } catch (RuntimeException e) {
            sessions.close();
            throw e;
        }
    }

    private static char[] passwordOf(String editor) {
        return (editor + "-bench-pw").toCharArray();
    }

    Accounts accounts() {
        return accounts;
    }

    /**
     * The first {@code owners} editors, each with review services choosing {@code strategy}. The
     * services share the pools opened once (closing them would close the pools), so a cell costs
     * no sign-ins.
     */
    Cell cell(int owners, ClaimStrategyKind strategy) {
        if (owners > editors.size()) {
            throw new IllegalArgumentException("only " + editors.size() + " editors were created");
        }
        List<Editor> loops = new ArrayList<>();
        ReviewSession shared = null;
        for (int i = 0; i < owners; i++) {
            ReviewSession session;
            if (accounts == Accounts.OWN) {
                session = new ReviewSession(pools.get(i), new ReviewSession.Options(strategy, Duration.ofSeconds(5)));
            } else {
                if (shared == null) {
                    shared = new ReviewSession(pools.get(0), new ReviewSession.Options(strategy, Duration.ofSeconds(5)));
                }
                session = shared;
            }
            loops.add(new Editor(session, editors.get(i)));
        }
        return new Cell(loops);
    }

    @Override
    public void close() {
        pools.forEach(Database::close);
    }

    /** The owners of one cell and the retry counts of their services. */
    record Cell(List<Editor> owners) {
        /** Retries, deadlocks and lock-wait timeouts, summed over distinct services. */
        long[] retries() {
            long[] sum = new long[3];
            owners.stream().map(e -> e.session.retryMetrics()).distinct().forEach((RetryMetrics m) -> {
                sum[0] += m.retries();
                sum[1] += m.deadlocks();
                sum[2] += m.lockWaitTimeouts();
            });
            return sum;
        }
    }

    /** Errors that reached an editor and left their session inside a transaction (all cells of the run). */
    static final AtomicLong OPEN_AFTER_ERROR = new AtomicLong();

    /** One editor: Get articles, then approve each one held. */
    static final class Editor implements OwnerLoop<HeldArticle> {
        private final ReviewSession session;
        private final String id;

        Editor(ReviewSession session, String id) {
            this.session = session;
            this.id = id;
        }

        @Override
        public List<HeldArticle> claim() {
            try {
                return session.queue().claim(id).articles();
            } catch (RuntimeException e) {
                throw diagnosed(e);
            }
        }

        @Override
        public boolean complete(HeldArticle article) {
            try {
                DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), article.id(),
                        article.lease(), Verdict.APPROVE, "ok"));
                return outcome instanceof DecisionOutcome.Recorded;
            } catch (RuntimeException e) {
                throw diagnosed(e);
            }
        }

        /**
         * Counts an error that reached the caller, and whether the editor's session (the pool's one
         * connection) was left inside a transaction by it: the database's operations are meant to
         * end their own transactions whatever happens.
         */
        private RuntimeException diagnosed(RuntimeException e) {
            try {
                if (session.database().dsl().fetchOne("select @@in_transaction").get(0, Integer.class) == 1) {
                    OPEN_AFTER_ERROR.incrementAndGet();
                }
            } catch (RuntimeException ignored) {
                // the session is gone: nothing left open on it
            }
            return e;
        }
    }
}
