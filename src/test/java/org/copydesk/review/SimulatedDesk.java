package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * A desk at work in real time, for the forecast's proof (docs/deadlines.md, "How the forecast was
 * checked"): each editor decides the article they hold at a fixed interval through the real
 * operations ({@code decide_at_stage}, then {@code claim_articles} for the next one at once), and
 * a client sweeps as every client does ({@code take_sweep_turn} every second, the turn every 5 s)
 * while a supervisor's dashboard looks for {@code deadline_at_risk} notices. The server's clock
 * cannot be moved, so the desk works at a compressed pace (seconds an article, thousands an hour)
 * that its seeded history of decisions gives the forecast.
 *
 * <p>An editor decides at {@code start + firstDecision}, then every {@code service} while the next
 * claim finds work at once; when it has to wait (a later stage waiting for the one before), the
 * next decision is {@code service} after the claim that found work.
 */
final class SimulatedDesk {

    /** An editor at work: the article held at the start, when it is decided, and how long each after it takes. */
    record Editor(String id, HeldArticle holding, Duration firstDecision, Duration service) {
    }

    /** What happened: each article's last decision, and when the dashboard first showed each at-risk notice (server times). */
    record Outcome(Map<Long, Instant> decidedAt, Map<Long, Instant> warnedAt, List<String> faults) {
    }

    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration SWEEP_TICK = Duration.ofSeconds(1);

    private final DSLContext dsl;
    private final ReviewProcedures procedures;
    private final DeadlineForecast forecasts;
    private final String desk;
    /** The server's own clock, read by a statement. */
    private final ForecastDesk clock;
    /** The server's clock less this machine's, measured once: the editors keep to the server's time. */
    private final Duration serverAhead;

    SimulatedDesk(DSLContext dsl, ReviewProcedures procedures, DeadlineForecast forecasts, String desk) {
        this.dsl = dsl;
        this.procedures = procedures;
        this.forecasts = forecasts;
        this.desk = desk;
        this.clock = new ForecastDesk(dsl, desk);
        Instant before = Instant.now();
        Instant server = clock.serverNow();
        this.serverAhead = Duration.between(before.plus(Duration.between(before, Instant.now()).dividedBy(2)), server);
    }

    /** The server's time now, by this machine's clock and the offset measured at the start. */
    Instant serverNow() {
        return Instant.now().plus(serverAhead);
    }

    /** Sleeps until the server's clock reads {@code at}. */
    void sleepUntil(Instant at) throws InterruptedException {
        long millis = Duration.between(serverNow(), at).toMillis();
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }

    /**
     * Sleeps until the server's own clock reads {@code at}, so that what is sent next runs at
     * {@code at} or after by that clock: by the offset first, then asking the server. The offset
     * comes from one round trip, and a request held up on its way in makes it wrong by up to half
     * of one: under load the forecast at the start once ran 2.75 ms before it.
     */
    void sleepUntilTheServerReads(Instant at) throws InterruptedException {
        sleepUntil(at);
        while (clock.serverNow().isBefore(at)) {
            Thread.sleep(1);
        }
    }

    /** Runs the editors from {@code start} until nothing waits on the desk (or {@code limit} after the start). */
    Outcome run(Instant start, List<Editor> editors, Duration limit) throws Exception {
        Instant end = start.plus(limit);
        Map<Long, Instant> warnedAt = new ConcurrentHashMap<>();
        List<String> faults = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean working = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(editors.size() + 1);
        try {
            Future<?> sweeping = pool.submit(() -> sweep(start, end, working, warnedAt));
            List<Future<?>> work = new ArrayList<>();
            for (Editor e : editors) {
                work.add(pool.submit(() -> work(e, start, end, faults)));
            }
            for (Future<?> f : work) {
                f.get();
            }
            working.set(false);
            sweeping.get();
        } finally {
            pool.shutdownNow();
        }
        return new Outcome(lastDecisions(), Map.copyOf(warnedAt), List.copyOf(faults));
    }

    private Void work(Editor e, Instant start, Instant end, List<String> faults) throws InterruptedException {
        HeldArticle held = e.holding();
        Instant at = start.plus(e.firstDecision());
        while (held != null) {
            sleepUntil(at);
            ReviewProcedures.Decided d = procedures.decide(e.id(), held.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
            if (d.outcome() != ReviewProcedures.DecideOutcome.RECORDED) {
                faults.add(e.id() + " could not decide " + held.id() + ": " + d.outcome());
            }
            held = null;
            boolean waited = false;
            while (held == null && serverNow().isBefore(end)) {
                List<HeldArticle> claimed = procedures.claim(e.id(), List.of(desk), 1, null).held();
                if (!claimed.isEmpty()) {
                    held = claimed.get(0);
                } else if (waiting() == 0) {
                    break;
                } else {
                    waited = true;
                    Thread.sleep(POLL.toMillis());
                }
            }
            at = waited ? serverNow().plus(e.service()) : at.plus(e.service());
        }
        return null;
    }

    /** A client's sweep tick every second (the turn itself every 5 s), and the dashboard's look for notices after each. */
    private Void sweep(Instant start, Instant end, AtomicBoolean working, Map<Long, Instant> warnedAt) throws InterruptedException {
        Instant tick = start;
        while (working.get() && serverNow().isBefore(end)) {
            sleepUntil(tick);
            procedures.takeSweepTurn(Duration.ofSeconds(5));
            Instant seen = serverNow();
            for (DeadlineForecast.AtRiskTold told : forecasts.toldSince(0)) {
                warnedAt.putIfAbsent(told.articleId(), seen);
            }
            tick = tick.plus(SWEEP_TICK);
        }
        return null;
    }

    private int waiting() {
        return dsl.fetchCount(ARTICLE, ARTICLE.DESK_ID.eq(desk).and(ARTICLE.STATUS.eq(ArticleStatus.queued)));
    }

    private Map<Long, Instant> lastDecisions() {
        Map<Long, Instant> last = new HashMap<>();
        dsl.select(DECISION.ARTICLE_ID, DSL.max(DECISION.DECIDED_AT)).from(DECISION).join(ARTICLE).on(ARTICLE.ID.eq(DECISION.ARTICLE_ID))
                .where(ARTICLE.DESK_ID.eq(desk)).and(ARTICLE.STATUS.ne(ArticleStatus.queued)).groupBy(DECISION.ARTICLE_ID)
                .fetch().forEach(r -> last.put(r.value1(), DueTimes.instant(r.value2())));
        return last;
    }

    /** Seconds after {@code start}, to the hundredth, for the report. */
    static String after(Instant start, Instant at) {
        return at == null ? "-" : String.format(java.util.Locale.ROOT, "%.2f", Duration.between(start, at).toMillis() / 1000.0);
    }

    /** The ids of {@code articles} that were decided after their due time, or not at all. */
    static List<Long> missed(Collection<DeadlineForecast.DueArticle> articles, Map<Long, Instant> decidedAt) {
        return articles.stream().filter(a -> {
            Instant decided = decidedAt.get(a.id());
            return decided == null || decided.isAfter(a.dueAt());
        }).map(DeadlineForecast.DueArticle::id).toList();
    }
}
