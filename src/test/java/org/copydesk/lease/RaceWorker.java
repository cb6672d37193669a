package org.copydesk.lease;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.ArticleLeases;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * One racing editor: claims, works a little, renews, releases, completes, and now and then "dies"
 * (walks away holding its leases, which then lapse) and comes back under a new owner name. Between
 * honest writes it tries writes it knows to be stale and counts any the engine accepts. Runs in the
 * race test's threads and in the worker processes the race test starts (and kills).
 */
final class RaceWorker implements Runnable {

    /** What all workers of a race add up. */
    static final class Counters {
        final LongAdder claims = new LongAdder();
        final LongAdder completed = new LongAdder();
        final LongAdder released = new LongAdder();
        final LongAdder renewed = new LongAdder();
        final LongAdder lost = new LongAdder();
        final LongAdder deaths = new LongAdder();
        final LongAdder staleAttempts = new LongAdder();
        final LongAdder staleAccepted = new LongAdder();
        final LongAdder zombieWrites = new LongAdder();
        final LongAdder zombieApplied = new LongAdder();
        final LongAdder busy = new LongAdder();

        @Override
        public String toString() {
            return "claims=" + claims + " completed=" + completed + " released=" + released + " renewed=" + renewed
                    + " lost=" + lost + " deaths=" + deaths + " staleAttempts=" + staleAttempts + " staleAccepted="
                    + staleAccepted + " zombieWrites=" + zombieWrites + " zombieApplied=" + zombieApplied + " busy=" + busy;
        }
    }

    // Short leases so that lapses, sweeps and take-overs happen constantly within a few seconds.
    private static final int MIN_TTL_MILLIS = 300;
    private static final int MAX_TTL_MILLIS = 800;
    private static final double DIE = 0.04;
    private static final double RELEASE = 0.08;
    private static final double RENEW = 0.25;
    private static final double STALE = 0.15;

    private final LeaseEngine engine;
    private final DSLContext dsl;
    private final String name;
    private final Counters counters;
    private final AtomicBoolean stop;
    private final int maxWorkMillis;
    /** Told about every stale write the engine accepted (the worker processes print it for the test to find). */
    private final Consumer<String> staleAcceptedReport;

    /** Leases this worker ended itself (completed, released) or saw lost: every write with them must be lost. */
    private final List<Lease> ended = new ArrayList<>();
    /** Leases a dead incarnation walked away from: writes with them may still be legitimately accepted. */
    private final List<Lease> abandoned = new ArrayList<>();

    RaceWorker(LeaseEngine engine, DSLContext dsl, String name, Counters counters, AtomicBoolean stop, int maxWorkMillis,
               Consumer<String> staleAcceptedReport) {
        this.engine = engine;
        this.dsl = dsl;
        this.name = name;
        this.counters = counters;
        this.stop = stop;
        this.maxWorkMillis = maxWorkMillis;
        this.staleAcceptedReport = staleAcceptedReport;
    }

    static ClaimRequest request(Owner owner, int limit, Duration ttl) {
        return new ClaimRequest(owner, ARTICLE.STATUS.eq(ArticleStatus.queued).and(ARTICLE.AVAILABLE_AT.le(ServerClock.now())),
                ArticleLeases.ORDER, limit, ttl);
    }

    @Override
    public void run() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int incarnation = 0;
        while (!stop.get()) {
            Owner owner = Owner.named(name + "." + incarnation);
            ClaimResult claim;
            try {
                claim = engine.claim(request(owner, 1 + random.nextInt(5), ttl(random)));
            } catch (DatabaseBusyException e) {
                counters.busy.increment();
                continue;
            }
            counters.claims.increment();
            if (claim.leases().isEmpty()) {
                if (dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.queued)) == 0) {
                    break;
                }
                pause(random, 20); // what is left is held by others; wait for it to be done or lapse
                continue;
            }
            if (random.nextDouble() < DIE) {
                // Walk away holding everything; a later incarnation (a new owner) may try the old leases.
                counters.deaths.increment();
                abandoned.addAll(claim.leases());
                incarnation++;
                pause(random, maxWorkMillis);
                continue;
            }
            // Work through part of the batch only: the next claim of the same owner refreshes the rest.
            int take = 1 + random.nextInt(claim.leases().size());
            for (Lease lease : claim.leases().subList(0, take)) {
                if (stop.get()) {
                    return;
                }
                try {
                    work(random, owner, lease);
                } catch (DatabaseBusyException e) {
                    counters.busy.increment();
                }
            }
            if (!abandoned.isEmpty() && random.nextDouble() < STALE) {
                zombieWrite(random);
            }
        }
    }

    private void work(ThreadLocalRandom random, Owner owner, Lease lease) {
        pause(random, maxWorkMillis);
        if (random.nextDouble() < STALE) {
            // The same row under the previous token, and under the right token but someone else's name.
            staleWrite(random, new Lease(lease.key(), lease.owner(), lease.token() - 1, lease.expiresAt(), lease.serverTime()));
            staleWrite(random, new Lease(lease.key(), "intruder", lease.token(), lease.expiresAt(), lease.serverTime()));
        }
        if (!ended.isEmpty() && random.nextDouble() < STALE) {
            staleWrite(random, ended.get(random.nextInt(ended.size())));
        }
        Lease current = lease;
        if (random.nextDouble() < RENEW) {
            WriteOutcome renewed = engine.renew(current, ttl(random), null);
            if (!(renewed instanceof WriteOutcome.Applied applied)) {
                lostOne(current);
                return;
            }
            counters.renewed.increment();
            current = applied.lease();
            pause(random, maxWorkMillis);
        }
        if (random.nextDouble() < RELEASE) {
            if (engine.release(current, "race: handed back").applied()) {
                counters.released.increment();
                remember(current);
            } else {
                lostOne(current);
            }
            return;
        }
        if (engine.complete(current, approvedBy(owner), "race: approved").applied()) {
            counters.completed.increment();
            remember(current);
        } else {
            lostOne(current);
        }
    }

    /** A write with a lease that can no longer be valid: the engine must refuse it. */
    private void staleWrite(ThreadLocalRandom random, Lease stale) {
        counters.staleAttempts.increment();
        WriteOutcome outcome = switch (random.nextInt(3)) {
            case 0 -> engine.renew(stale, ttl(random), null);
            case 1 -> engine.release(stale, "race: stale release");
            default -> engine.complete(stale, approvedBy(Owner.named(stale.owner())), "race: stale complete");
        };
        if (outcome.applied()) {
            counters.staleAccepted.increment();
            staleAcceptedReport.accept("STALE-ACCEPTED " + stale);
        }
    }

    /**
     * A dead incarnation's write arriving late (a paused process waking up). Accepted only if nobody
     * claimed the row since (the token is unchanged), which the event-log audit checks.
     */
    private void zombieWrite(ThreadLocalRandom random) {
        Lease zombie = abandoned.remove(random.nextInt(abandoned.size()));
        counters.zombieWrites.increment();
        try {
            if (engine.complete(zombie, approvedBy(Owner.named(zombie.owner())), "race: zombie complete").applied()) {
                counters.zombieApplied.increment();
                counters.completed.increment();
            }
        } catch (DatabaseBusyException e) {
            counters.busy.increment();
        }
        remember(zombie); // ended or lost: stale from now on either way
    }

    private void lostOne(Lease lease) {
        counters.lost.increment();
        remember(lease);
    }

    private void remember(Lease lease) {
        if (ended.size() >= 64) {
            ended.remove(0);
        }
        ended.add(lease);
    }

    private static Map<Field<?>, Object> approvedBy(Owner owner) {
        return Map.of(ARTICLE.STATUS, ArticleStatus.approved, ARTICLE.DECIDED_BY, owner.name(),
                ARTICLE.DECIDED_AT, ServerClock.now());
    }

    private static Duration ttl(ThreadLocalRandom random) {
        return Duration.ofMillis(random.nextInt(MIN_TTL_MILLIS, MAX_TTL_MILLIS + 1));
    }

    private static void pause(ThreadLocalRandom random, int maxMillis) {
        if (maxMillis <= 0) {
            return;
        }
        try {
            Thread.sleep(random.nextInt(maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
