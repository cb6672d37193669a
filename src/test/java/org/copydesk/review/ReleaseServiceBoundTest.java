package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.lease.Lease;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release service's bound (see {@link ReleaseService}): with editors busy claiming and deciding
 * on another desk, 60 leases lapse one after another over three seconds, and each is freed by a
 * sweep that starts within interval + the longest sweep of its expiry, on the server's clock.
 */
@ExtendWith(DatabaseExtension.class)
class ReleaseServiceBoundTest {

    private static final Logger log = LoggerFactory.getLogger(ReleaseServiceBoundTest.class);
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final int LEASES = 60;
    /** The operating system's share: a thread that is due may wait this long for a core on a loaded machine. */
    private static final Duration SCHEDULING_SLACK = Duration.ofMillis(500);

    private final TestDatabase db;
    private final DSLContext dsl;

    ReleaseServiceBoundTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @Test
    void aLapsedLeaseIsFreedWithinOneIntervalAndOneSweepOfItsExpiryUnderLoad() throws Exception {
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("lapsing", "Lapsing", Duration.ofMinutes(30));
        newsroom.addDesk("busy", "Busy", Duration.ofMinutes(30));
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < LEASES / 5; i++) {
            newsroom.addEditor("holder" + i, "Holder " + i, Role.EDITOR, 5, List.of("lapsing"));
            holders.add("holder" + i);
        }
        for (int i = 0; i < 4; i++) {
            newsroom.addEditor("busy" + i, "Busy " + i, Role.EDITOR, 5, List.of("busy"));
        }
        List<Long> lapsing = Fixtures.articles(dsl, "lapsing", LEASES, 3, -60);
        Fixtures.articles(dsl, "busy", 4000, 3, -60);
        // not closed: the test's database stays open
        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(null, INTERVAL));
        for (String holder : holders) {
            session.queue().claim(holder);
        }
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.ID.in(lapsing).and(ARTICLE.LOCKED_BY.isNotNull()))).isEqualTo(LEASES);

        AtomicBoolean working = new AtomicBoolean(true);
        List<Thread> load = startBusyEditors(session, working);
        List<Lease> freed = Collections.synchronizedList(new ArrayList<>());
        try (ReleaseService service = session.releaseService(freed::addAll)) {
            service.start();
            // the leases lapse one after another, 50 ms apart, from a second from now
            for (int i = 0; i < LEASES; i++) {
                dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMillis(1000 + 50L * i)))
                        .where(ARTICLE.ID.eq(lapsing.get(i))).execute();
            }
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (lapsingFreed(freed, lapsing).size() < LEASES && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            working.set(false);
            for (Thread t : load) {
                t.join();
            }
            List<Lease> ours = lapsingFreed(freed, lapsing);
            assertThat(ours).as("every lapsed lease freed").hasSize(LEASES);
            Duration bound = INTERVAL.plus(service.longestSweep());
            Duration latest = ours.stream().map(l -> Duration.between(l.expiresAt(), l.serverTime()))
                    .max(Duration::compareTo).orElseThrow();
            long overInterval = ours.stream().filter(l -> Duration.between(l.expiresAt(), l.serverTime()).compareTo(INTERVAL) > 0).count();
            log.info("release bound: interval {} ms, longest sweep {} ms, latest release {} ms after expiry, {} of {} later than the interval",
                    INTERVAL.toMillis(), service.longestSweep().toMillis(), latest.toMillis(), overInterval, LEASES);
            assertThat(latest).as("latest release after expiry (longest sweep %s ms)", service.longestSweep().toMillis())
                    .isLessThanOrEqualTo(bound.plus(SCHEDULING_SLACK));
        } finally {
            working.set(false);
        }
    }

    private static List<Lease> lapsingFreed(List<Lease> freed, List<Long> lapsing) {
        synchronized (freed) {
            return freed.stream().filter(l -> lapsing.contains(((Number) l.key().single()).longValue())).toList();
        }
    }

    /** Four editors claiming and deciding as fast as they can on another desk: the server is busy. */
    private static List<Thread> startBusyEditors(ReviewSession session, AtomicBoolean working) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String editor = "busy" + i;
            Thread t = new Thread(() -> {
                while (working.get()) {
                    for (HeldArticle held : session.queue().claim(editor).articles()) {
                        session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), Verdict.APPROVE, ""));
                    }
                }
            }, "busy-" + editor);
            t.start();
            threads.add(t);
        }
        return threads;
    }
}
