package org.copydesk.review;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.copydesk.lease.DatabaseBusyException;
import org.copydesk.lease.Lease;

/**
 * One racing editor working through the review services as the app does (claim with one-second
 * leases, decide, renew, give back), and now and then "dying": walking away holding what it
 * claimed, so the leases lapse and others take them over. Between honest writes it sends writes it
 * knows to be stale (an older token, the right token under another editor's name, a lease it ended
 * itself) and counts any the database accepts. Runs in the race test's threads and in the worker
 * processes the race test starts and kills ({@link OperationRaceProcess}).
 */
final class OperationRaceWorker implements Runnable {

    /** What every worker of a race adds up. */
    static final class Counters {
        final LongAdder claims = new LongAdder();
        final LongAdder decided = new LongAdder();
        final LongAdder released = new LongAdder();
        final LongAdder renewed = new LongAdder();
        final LongAdder lost = new LongAdder();
        final LongAdder deaths = new LongAdder();
        final LongAdder staleAttempts = new LongAdder();
        final LongAdder staleAccepted = new LongAdder();
        final LongAdder zombieWrites = new LongAdder();
        final LongAdder busy = new LongAdder();

        @Override
        public String toString() {
            return "claims=" + claims + " decided=" + decided + " released=" + released + " renewed=" + renewed + " lost=" + lost
                    + " deaths=" + deaths + " staleAttempts=" + staleAttempts + " staleAccepted=" + staleAccepted
                    + " zombieWrites=" + zombieWrites + " busy=" + busy;
        }
    }

    /** Every lease a claim gives lasts this long, so lapses and take-overs happen within the race. */
    static final Duration LEASE = Duration.ofSeconds(1);
    /** A worker walks away on its third round and every tenth after it. */
    private static final int DIE_EVERY = 10;
    private static final double RELEASE = 0.1;
    private static final double RENEW = 0.2;
    private static final double STALE = 0.3;

    private final ReviewSession session;
    private final String editor;
    private final String intruder;
    private final Counters counters;
    private final AtomicBoolean stop;
    private final int maxWorkMillis;
    /** Told "RECORDED request-id" for every decision recorded, "STALE-ACCEPTED …" for every stale write accepted. */
    private final Consumer<String> report;
    /** Run before each claim: the race test's threads wait there for each other, so their claims meet head on. */
    private final Runnable beforeClaim;

    /** Leases this worker ended itself (decided, given back): every write under them must change nothing. */
    private final List<Lease> ended = new ArrayList<>();
    /** Leases a "dead" worker walked away from: a late write under one may still be accepted if nobody took it. */
    private final List<HeldArticle> abandoned = new ArrayList<>();
    private int rounds;

    /**
     * @param intruder    another racing editor, whose name this worker forges in stale writes
     * @param beforeClaim what to do before each claim (nothing, or wait for the other workers)
     */
    OperationRaceWorker(ReviewSession session, String editor, String intruder, Counters counters, AtomicBoolean stop,
                        int maxWorkMillis, Consumer<String> report, Runnable beforeClaim) {
        this.session = session;
        this.editor = editor;
        this.intruder = intruder;
        this.counters = counters;
        this.stop = stop;
        this.maxWorkMillis = maxWorkMillis;
        this.report = report;
        this.beforeClaim = beforeClaim;
    }

    @Override
    public void run() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            try {
                round(random);
            } catch (DatabaseBusyException e) {
                counters.busy.increment();
            }
        }
    }

    private void round(ThreadLocalRandom random) {
        beforeClaim.run();
        List<HeldArticle> held = session.queue().claim(editor, LEASE).articles();
        counters.claims.increment();
        if (held.isEmpty()) {
            pause(random, 20);
            return;
        }
        if (++rounds % DIE_EVERY == 3) {
            counters.deaths.increment();
            abandoned.addAll(held);
            pause(random, maxWorkMillis);
            return;
        }
        // part of the batch only: the next claim refreshes the rest
        for (HeldArticle article : held.subList(0, 1 + random.nextInt(held.size()))) {
            if (stop.get()) {
                return;
            }
            work(random, article);
        }
        if (!abandoned.isEmpty() && random.nextDouble() < STALE) {
            counters.zombieWrites.increment();
            HeldArticle zombie = abandoned.remove(random.nextInt(abandoned.size()));
            decide(zombie); // accepted only if nobody took it meanwhile, which the history's replay checks
        }
    }

    private void work(ThreadLocalRandom random, HeldArticle article) {
        pause(random, maxWorkMillis);
        if (random.nextDouble() < STALE) {
            Lease lease = article.lease();
            staleWrite(random, article.withLease(new Lease(lease.key(), lease.owner(), lease.token() - 1, lease.expiresAt(),
                    lease.serverTime())));
            staleWrite(random, article.withLease(new Lease(lease.key(), intruder, lease.token(), lease.expiresAt(),
                    lease.serverTime())));
        }
        if (!ended.isEmpty() && random.nextDouble() < STALE) {
            Lease old = ended.get(random.nextInt(ended.size()));
            staleWrite(random, new HeldArticle(ArticleLeases.articleId(old), null, null, "stale", null, 3, 0, null, old));
        }
        HeldArticle current = article;
        if (random.nextDouble() < RENEW) {
            ReviewQueue.Renewal renewal = session.queue().renew(editor, List.of(current));
            if (renewal.renewed().isEmpty()) {
                counters.lost.increment();
                return;
            }
            counters.renewed.increment();
            current = renewal.renewed().get(0);
        }
        if (random.nextDouble() < RELEASE) {
            if (session.queue().release(current).isEmpty()) {
                counters.released.increment();
                remember(current.lease());
            } else {
                counters.lost.increment();
            }
            return;
        }
        if (decide(current)) {
            remember(current.lease());
        } else {
            counters.lost.increment();
        }
    }

    /** Approves the article under its lease; true when the decision was recorded. */
    private boolean decide(HeldArticle article) {
        UUID request = UUID.randomUUID();
        DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(request, article.id(), article.lease(),
                Verdict.APPROVE, ""));
        if (outcome instanceof DecisionOutcome.Recorded) {
            counters.decided.increment();
            report.accept("RECORDED " + request);
            return true;
        }
        if (!(outcome instanceof DecisionOutcome.Lost)) {
            throw new IllegalStateException("a decision under a lease came back " + outcome);
        }
        return false;
    }

    /** A write under a lease that cannot be the writer's: the database must change nothing. */
    private void staleWrite(ThreadLocalRandom random, HeldArticle stale) {
        counters.staleAttempts.increment();
        String writer = stale.lease().owner();
        boolean accepted = switch (random.nextInt(3)) {
            case 0 -> !session.queue().renew(writer, List.of(stale)).renewed().isEmpty();
            case 1 -> session.queue().release(stale).isEmpty();
            default -> session.decisions().submit(new DecisionRequest(UUID.randomUUID(), stale.id(), stale.lease(),
                    Verdict.APPROVE, "")) instanceof DecisionOutcome.Recorded;
        };
        if (accepted) {
            counters.staleAccepted.increment();
            report.accept("STALE-ACCEPTED " + stale.id() + " " + stale.lease().owner() + "/" + stale.lease().token());
        }
    }

    private void remember(Lease lease) {
        if (ended.size() >= 32) {
            ended.remove(0);
        }
        ended.add(lease);
    }

    private static void pause(ThreadLocalRandom random, int maxMillis) {
        try {
            Thread.sleep(random.nextInt(Math.max(1, maxMillis) + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
