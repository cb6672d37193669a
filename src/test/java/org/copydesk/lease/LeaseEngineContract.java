package org.copydesk.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.ArticleLeases;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract every claim strategy keeps, run against the real server. Subclasses choose the
 * strategy; each gets a database of its own.
 */
@ExtendWith(DatabaseExtension.class)
abstract class LeaseEngineContract {

    static final Duration TTL = Duration.ofMinutes(10);

    final TestDatabase db;
    final DSLContext dsl;
    final LeaseEngine engine;

    LeaseEngineContract(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.engine = new LeaseEngine(dsl, ArticleLeases.TABLE, ArticleLeases.EVENTS,
                LeaseEngine.Options.defaults(db.database().capabilities().supportsSkipLocked()).withStrategy(strategy()));
    }

    abstract ClaimStrategyKind strategy();

    @BeforeEach
    void emptyTables() {
        Fixtures.clear(dsl);
    }

    ClaimRequest request(String owner, int limit) {
        return request(owner, limit, TTL);
    }

    ClaimRequest request(String owner, int limit, Duration ttl) {
        return new ClaimRequest(Owner.named(owner), ARTICLE.STATUS.eq(ArticleStatus.queued)
                .and(ARTICLE.AVAILABLE_AT.le(ServerClock.now())), ArticleLeases.ORDER, limit, ttl);
    }

    List<Long> ids(ClaimResult result) {
        return result.leases().stream().map(l -> (Long) l.key().single()).toList();
    }

    @Test
    void claimTakesUpToTheLimitInClaimOrderWithServerExpiryAndANewToken() {
        List<Long> low = Fixtures.articles(dsl, "news", 3, 4, -60);
        List<Long> urgent = Fixtures.articles(dsl, "news", 3, 1, -30);

        ClaimResult result = engine.claim(request("ann", 5));

        assertThat(result.claimed()).isEqualTo(5);
        assertThat(ids(result)).containsExactly(urgent.get(0), urgent.get(1), urgent.get(2), low.get(0), low.get(1));
        for (Lease lease : result.leases()) {
            assertThat(lease.owner()).isEqualTo("ann");
            assertThat(lease.token()).isEqualTo(1L);
            assertThat(Duration.between(lease.serverTime(), lease.expiresAt())).isBetween(TTL.minusSeconds(2), TTL);
        }
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("ann"))).isEqualTo(5);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("claim"))).isEqualTo(5);
    }

    @Test
    void reloadRefreshesHeldLeasesFirstKeepsTheirTokensAndTopsUp() throws Exception {
        Fixtures.articles(dsl, "news", 8, 3, -60);
        ClaimResult first = engine.claim(request("ann", 3, Duration.ofMinutes(1)));
        Thread.sleep(20);

        ClaimResult second = engine.claim(request("ann", 5));

        assertThat(second.refreshed()).isEqualTo(3);
        assertThat(second.claimed()).isEqualTo(2);
        assertThat(ids(second).subList(0, 3)).containsExactlyInAnyOrderElementsOf(ids(first));
        for (Lease refreshed : second.leases().subList(0, 3)) {
            Lease before = first.leases().stream().filter(l -> l.key().equals(refreshed.key())).findFirst().orElseThrow();
            assertThat(refreshed.token()).as("token of %s", refreshed.key()).isEqualTo(before.token());
            assertThat(refreshed.expiresAt()).as("expiry of %s", refreshed.key()).isAfter(before.expiresAt().plusSeconds(500));
        }
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("refresh"))).isEqualTo(3);
    }

    @Test
    void twoOwnersNeverReceiveTheSameRow() {
        Fixtures.articles(dsl, "news", 7, 3, -60);
        ClaimResult ann = engine.claim(request("ann", 5));
        ClaimResult bob = engine.claim(request("bob", 5));

        assertThat(ann.claimed()).isEqualTo(5);
        assertThat(bob.claimed()).isEqualTo(2);
        Set<Long> all = new HashSet<>(ids(ann));
        all.addAll(ids(bob));
        assertThat(all).hasSize(7);
    }

    @Test
    void scopeLimitsWhatAnOwnerReceives() {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        List<Long> sport = Fixtures.articles(dsl, "sport", 2, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, 3600); // embargoed: available in an hour

        ClaimResult result = engine.claim(new ClaimRequest(Owner.named("ann"), ARTICLE.DESK_ID.eq("sport")
                .and(ARTICLE.AVAILABLE_AT.le(ServerClock.now())), ArticleLeases.ORDER, 5, TTL));

        assertThat(ids(result)).containsExactlyElementsOf(sport);
    }

    @Test
    void anExpiredLeaseIsClaimableAtOnceAndGoesBeforeFreshWorkOfTheSamePriority() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        ClaimResult ann = engine.claim(request("ann", 1, Duration.ofMinutes(1)));
        assertThat(ids(ann)).containsExactly(ids.get(0));
        Fixtures.letTimePass(dsl, Duration.ofMinutes(2), List.of(ids.get(0)));
        // Make the lapsed article the newest, so only the lane rule can put it first.
        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.now()).where(ARTICLE.ID.eq(ids.get(0))).execute();

        ClaimResult bob = engine.claim(request("bob", 1));

        assertThat(ids(bob)).containsExactly(ids.get(0));
        assertThat(bob.leases().get(0).token()).isEqualTo(ann.leases().get(0).token() + 1);
        WriteOutcome annWrite = engine.renew(ann.leases().get(0), TTL, null);
        assertThat(annWrite).isInstanceOf(WriteOutcome.Lost.class);
        LeaseLost lost = ((WriteOutcome.Lost) annWrite).lost();
        assertThat(lost.reason()).isEqualTo(LostReason.EXPIRED);
        assertThat(lost.currentOwner()).isEqualTo("bob");
    }

    @Test
    void renewExtendsOnlyUnderTheCurrentToken() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = engine.claim(request("ann", 1, Duration.ofMinutes(1))).leases().get(0);

        WriteOutcome renewed = engine.renew(lease, Duration.ofMinutes(20), null);
        assertThat(renewed.applied()).isTrue();
        Lease after = ((WriteOutcome.Applied) renewed).lease();
        assertThat(Duration.between(after.serverTime(), after.expiresAt())).isGreaterThan(Duration.ofMinutes(19));

        Lease forged = new Lease(lease.key(), lease.owner(), lease.token() + 7, lease.expiresAt(), lease.serverTime());
        assertThat(engine.renew(forged, TTL, null).applied()).isFalse();
        Lease impostor = new Lease(lease.key(), "mallory", lease.token(), lease.expiresAt(), lease.serverTime());
        assertThat(engine.renew(impostor, TTL, null).applied()).isFalse();
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq((Long) lease.key().single()))).isEqualTo("ann");
    }

    @Test
    void renewIsCappedByTheMaximumHoldTime() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = engine.claim(request("ann", 1, Duration.ofMinutes(1))).leases().get(0);

        Lease renewed = ((WriteOutcome.Applied) engine.renew(lease, Duration.ofHours(10), Duration.ofMinutes(5))).lease();

        // capped at the maximum hold, yet really renewed (a renewal that did nothing would pass the cap alone)
        assertThat(Duration.between(renewed.serverTime(), renewed.expiresAt())).isLessThanOrEqualTo(Duration.ofMinutes(5))
                .isGreaterThan(Duration.ofMinutes(4));
        assertThat(renewed.expiresAt()).isAfter(lease.expiresAt());
    }

    @Test
    void renewAllRenewsEveryLeaseOfTheOwnerAndNoOneElses() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        engine.claim(request("ann", 2, Duration.ofMinutes(1)));
        engine.claim(request("bob", 2, Duration.ofMinutes(1)));

        List<Lease> renewed = engine.renewAll(Owner.named("ann"), Duration.ofMinutes(30), null);

        assertThat(renewed).hasSize(2).allMatch(l -> l.owner().equals("ann")
                && Duration.between(l.serverTime(), l.expiresAt()).compareTo(Duration.ofMinutes(29)) > 0);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(2);
    }

    @Test
    void releaseFreesTheRowAndASecondReleaseIsLostAsReleased() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = engine.claim(request("ann", 1)).leases().get(0);

        assertThat(engine.release(lease, null).applied()).isTrue();
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq((Long) lease.key().single()))).isNull();
        WriteOutcome again = engine.release(lease, null);
        assertThat(((WriteOutcome.Lost) again).lost().reason()).isEqualTo(LostReason.RELEASED);
        // it comes back ahead of fresh work
        Fixtures.articles(dsl, "news", 1, 3, -3600);
        assertThat(ids(engine.claim(request("bob", 1)))).containsExactly((Long) lease.key().single());
    }

    @Test
    void completeAppliesTheChangesOnlyUnderTheLease() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Lease> leases = engine.claim(request("ann", 2)).leases();
        Map<Field<?>, Object> approve = Map.of(ARTICLE.STATUS, ArticleStatus.approved);

        assertThat(engine.complete(leases.get(0), approve, "approved").applied()).isTrue();
        Lease stale = new Lease(leases.get(1).key(), "ann", leases.get(1).token() - 1, leases.get(1).expiresAt(),
                leases.get(1).serverTime());
        assertThat(engine.complete(stale, approve, "approved").applied()).isFalse();

        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq((Long) leases.get(0).key().single()))).isEqualTo(ArticleStatus.approved);
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq((Long) leases.get(1).key().single()))).isEqualTo(ArticleStatus.queued);
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq((Long) leases.get(1).key().single()))).isEqualTo("ann");
    }

    @Test
    void forceReleaseIsReportedToTheHolderWithActorAndReason() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = engine.claim(request("ann", 1)).leases().get(0);

        assertThat(engine.forceRelease(lease.key(), "sue", "legal hold")).isPresent();
        LeaseLost lost = ((WriteOutcome.Lost) engine.complete(lease, Map.of(ARTICLE.STATUS, ArticleStatus.approved), null)).lost();

        assertThat(lost.reason()).isEqualTo(LostReason.FORCE_RELEASED);
        assertThat(lost.byActor()).isEqualTo("sue");
        assertThat(lost.detail()).isEqualTo("legal hold");
        assertThat(engine.forceRelease(lease.key(), "sue", "again")).isEmpty();
    }

    @Test
    void reassignGivesANewTokenToTheNewOwnerAndTheOldOneLearnsWho() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease ann = engine.claim(request("ann", 1)).leases().get(0);

        Lease bob = engine.reassign(ann.key(), "bob", "sue", TTL, "ann is off sick");
        LeaseLost lost = ((WriteOutcome.Lost) engine.renew(ann, TTL, null)).lost();

        assertThat(bob.owner()).isEqualTo("bob");
        assertThat(bob.token()).isGreaterThan(ann.token());
        assertThat(lost.reason()).isEqualTo(LostReason.REASSIGNED);
        assertThat(lost.currentOwner()).isEqualTo("bob");
        assertThat(lost.byActor()).isEqualTo("sue");
        assertThat(engine.renew(bob, TTL, null).applied()).isTrue();
    }

    @Test
    void extendMovesTheExpiryWithinTheMaximumHold() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = engine.claim(request("ann", 1, Duration.ofMinutes(5))).leases().get(0);

        Lease extended = engine.extend(lease.key(), Duration.ofMinutes(30), Duration.ofHours(4), "sue").orElseThrow();
        assertThat(extended.expiresAt()).isAfter(lease.expiresAt().plusMinutes(29));
        assertThat(extended.token()).isEqualTo(lease.token());

        Lease capped = engine.extend(lease.key(), Duration.ofDays(2), Duration.ofHours(4), "sue").orElseThrow();
        assertThat(Duration.between(capped.serverTime(), capped.expiresAt())).isLessThanOrEqualTo(Duration.ofHours(4));
    }

    @Test
    void releaseExpiredFreesOnlyExpiredLeasesInBatchesAndLogsThem() throws Exception {
        Fixtures.articles(dsl, "news", 12, 3, -60);
        engine.claim(request("ann", 5, Duration.ofMinutes(1)));
        engine.claim(request("bob", 5, Duration.ofMinutes(1)));
        engine.claim(request("cat", 2, Duration.ofHours(1)));
        // Lapse ann's and bob's leases on the server's clock. (Short TTLs and a sleep flaked on a
        // loaded machine: bob's claim could outlast ann's 200 ms leases and take them over.)
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.LOCKED_BY.in("ann", "bob")).execute();

        List<Lease> released = engine.releaseExpired(3, 100, "release-service");

        assertThat(released).hasSize(10).allMatch(l -> !l.owner().equals("cat"));
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isEqualTo(2);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.ACTOR.eq("release-service"))))
                .isEqualTo(10);
        assertThat(engine.releaseExpired(3, 100, "release-service")).isEmpty();
    }

    @Test
    void concurrentReleasersNeverReleaseALeaseTwice() throws Exception {
        Fixtures.articles(dsl, "news", 60, 3, -60);
        for (int i = 0; i < 12; i++) {
            engine.claim(request("owner" + i, 5));
        }
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.LOCKED_BY.isNotNull()).execute();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Lease>>> results = pool.invokeAll(List.of(
                    () -> engine.releaseExpired(4, 100, "r1"), () -> engine.releaseExpired(4, 100, "r2"),
                    () -> engine.releaseExpired(4, 100, "r3"), () -> engine.releaseExpired(4, 100, "r4")));
            int total = 0;
            for (Future<List<Lease>> f : results) {
                total += f.get().size();
            }
            // A releaser stops at a short batch (rows others had locked); the service runs again at
            // its next interval, as this does. What must never happen is a lease released twice.
            total += engine.releaseExpired(4, 100, "r5").size();
            assertThat(total).isEqualTo(60);
            assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire"))).isEqualTo(60);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Client in Los Angeles, server in Adelaide-ish +09:30, sessions in UTC: leases are computed and
     * compared on the server, and what the client reads is the server's UTC clock.
     */
    @Test
    void expiryUsesTheServerClockWhateverTheClientAndServerTimeZones() throws Exception {
        TimeZone original = TimeZone.getDefault();
        TestServerTimeZone serverZone = TestServerTimeZone.set(dsl, "+09:30");
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        // a client started in that zone: its own pool, opened after the zone was set
        try (org.copydesk.db.Database client = org.copydesk.db.Database.open(db.url(), db.endpoint().user(),
                db.endpoint().password().toCharArray(), null, org.copydesk.db.DataSources.PoolSize.of(2),
                org.copydesk.db.Database.SchemaAction.NONE, null)) {
            LeaseEngine laEngine = new LeaseEngine(client.dsl(), ArticleLeases.TABLE, ArticleLeases.EVENTS,
                    LeaseEngine.Options.defaults(client.capabilities().supportsSkipLocked()).withStrategy(strategy()));
            Fixtures.articles(dsl, "news", 2, 3, -60);
            Lease shortLease = laEngine.claim(request("ann", 1, Duration.ofSeconds(1))).leases().get(0);
            Lease longLease = laEngine.claim(request("bob", 1, Duration.ofMinutes(10))).leases().get(0);

            assertThat(Duration.between(longLease.serverTime(), longLease.expiresAt())).isBetween(
                    Duration.ofMinutes(10).minusSeconds(2), Duration.ofMinutes(10));
            LocalDateTime utcNow = LocalDateTime.now(java.time.ZoneOffset.UTC);
            assertThat(Duration.between(utcNow, longLease.expiresAt())).isBetween(Duration.ofMinutes(9), Duration.ofMinutes(11));
            // the 10-minute lease is not claimable; the 1-second one is after a second on the server's clock
            assertThat(laEngine.claim(request("cat", 5)).claimed()).isZero();
            Fixtures.letTimePass(dsl, Duration.ofSeconds(2), List.of((Long) shortLease.key().single(),
                    (Long) longLease.key().single()));
            ClaimResult cat = laEngine.claim(request("cat", 5));
            assertThat(ids(cat)).containsExactly((Long) shortLease.key().single());
        } finally {
            TimeZone.setDefault(original);
            serverZone.restore();
        }
    }

    @Test
    void deadlocksAreRetriedAndNeverReachTheCaller() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        CyclicBarrier barrier = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        try {
            List<Future<Integer>> results = pool.invokeAll(List.of(
                    () -> lockInOrder(ids.get(0), ids.get(1), barrier, attempts),
                    () -> lockInOrder(ids.get(1), ids.get(0), barrier, attempts)));
            for (Future<Integer> f : results) {
                assertThat(f.get()).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(engine.metrics().deadlocks()).isGreaterThanOrEqualTo(1);
        assertThat(attempts.get()).isGreaterThan(2);
    }

    private int lockInOrder(long first, long second, CyclicBarrier barrier, java.util.concurrent.atomic.AtomicInteger attempts) {
        return engine.inTransaction("deadlock test", tx -> {
            int attempt = attempts.incrementAndGet();
            tx.update(ARTICLE).set(ARTICLE.RENEWALS, ARTICLE.RENEWALS.plus(1)).where(ARTICLE.ID.eq(first)).execute();
            if (attempt <= 2) {
                try {
                    barrier.await(5, java.util.concurrent.TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return tx.update(ARTICLE).set(ARTICLE.RENEWALS, ARTICLE.RENEWALS.plus(1)).where(ARTICLE.ID.eq(second)).execute();
        });
    }

    @Test
    void aCompositeKeyTableCanBeLeasedToo() {
        Table<?> slot = DSL.table(DSL.name("shift_slot"));
        Field<String> desk = DSL.field(DSL.name("shift_slot", "desk"), SQLDataType.VARCHAR(32));
        Field<Integer> number = DSL.field(DSL.name("shift_slot", "slot_no"), SQLDataType.INTEGER);
        Field<String> owner = DSL.field(DSL.name("shift_slot", "held_by"), SQLDataType.VARCHAR(64));
        Field<LocalDateTime> expires = DSL.field(DSL.name("shift_slot", "held_until"), SQLDataType.LOCALDATETIME(6));
        Field<Long> token = DSL.field(DSL.name("shift_slot", "token"), SQLDataType.BIGINT);
        Field<Integer> lane = DSL.field(DSL.name("shift_slot", "lane"), SQLDataType.INTEGER);
        Field<Boolean> done = DSL.field(DSL.name("shift_slot", "done"), SQLDataType.BOOLEAN);
        dsl.createTableIfNotExists(slot).column(desk.getUnqualifiedName().first(), SQLDataType.VARCHAR(32).nullable(false))
                .column("slot_no", SQLDataType.INTEGER.nullable(false))
                .column("held_by", SQLDataType.VARCHAR(64).nullable(true))
                .column("held_until", SQLDataType.LOCALDATETIME(6).nullable(true))
                .column("token", SQLDataType.BIGINT.nullable(false).defaultValue(0L))
                .column("lane", SQLDataType.INTEGER.nullable(false).defaultValue(1))
                .column("done", SQLDataType.BOOLEAN.nullable(false).defaultValue(false))
                .primaryKey("desk", "slot_no").execute();
        dsl.deleteFrom(slot).execute();
        for (String d : List.of("news", "sport")) {
            for (int i = 1; i <= 3; i++) {
                dsl.insertInto(slot, desk, number).values(d, i).execute();
            }
        }
        LeaseEngine slots = new LeaseEngine(dsl, new LeaseTable(slot, "shift_slot", List.of(desk, number), owner, expires,
                token, lane, null, null), ArticleLeases.EVENTS,
                LeaseEngine.Options.defaults(engine.strategy() != ClaimStrategyKind.BLOCKING)
                .withStrategy(strategy()));
        ClaimOrder order = new ClaimOrder(List.of(), List.of(desk.asc(), number.asc()));

        ClaimResult ann = slots.claim(new ClaimRequest(Owner.named("ann"), done.isFalse(), order, 4, TTL));
        ClaimResult bob = slots.claim(new ClaimRequest(Owner.named("bob"), done.isFalse(), order, 4, TTL));

        assertThat(ann.leases()).extracting(Lease::key).containsExactly(RowKey.of("news", 1), RowKey.of("news", 2),
                RowKey.of("news", 3), RowKey.of("sport", 1));
        assertThat(bob.leases()).extracting(Lease::key).containsExactly(RowKey.of("sport", 2), RowKey.of("sport", 3));
        Lease first = ann.leases().get(0);
        assertThat(slots.complete(first, Map.of(done, true), null).applied()).isTrue();
        assertThat(slots.complete(first, Map.of(done, true), null).applied()).isFalse();
        assertThat(slots.renew(bob.leases().get(0), TTL, null).applied()).isTrue();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.RESOURCE.eq("shift_slot").and(LEASE_EVENT.ROW_KEY.eq("news|1"))))
                .isEqualTo(2);
        assertThatThrownBy(() -> slots.renew(new Lease(RowKey.of("news"), "ann", 1, null, null), TTL, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
