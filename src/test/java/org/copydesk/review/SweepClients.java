package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;

/** The sweep tests' common run: many release services ticking while a holder's leases lapse, and what they freed. */
final class SweepClients {

    private SweepClients() {
    }

    /**
     * Starts {@code count} release services of {@code session} as the app starts them, lets
     * {@code holder}'s leases lapse two seconds later while they run for {@code running}, then
     * stops them; returns them for what they were last told.
     */
    static List<ReleaseService> runWhileLeasesLapse(ReviewSession session, DSLContext root, String holder, int count,
                                                    Duration running) throws InterruptedException {
        List<ReleaseService> clients = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ReleaseService client = session.releaseService(released -> { });
                clients.add(client);
                client.start();
            }
            root.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofSeconds(2)))
                    .where(ARTICLE.LOCKED_BY.eq(holder)).execute();
            Thread.sleep(running.toMillis());
        } finally {
            clients.forEach(ReleaseService::close);
        }
        return clients;
    }

    /** Checks that every expiry of {@code holder}'s leases was recorded within {@code bound} of its end; returns how many. */
    static int assertFreedWithin(DSLContext root, String holder, Duration bound) {
        var expiries = root.select(LEASE_EVENT.OCCURRED_AT, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.OLD_OWNER.eq(holder))).fetch();
        assertThat(expiries).as("expiries recorded").isNotEmpty();
        for (var e : expiries) {
            LocalDateTime expiredAt = LocalDateTime.parse(e.value2().substring("lease expired at ".length()));
            Duration late = Duration.between(expiredAt, e.value1());
            assertThat(late).as("freed %s ms after its expiry", late.toMillis()).isLessThanOrEqualTo(bound);
        }
        return expiries.size();
    }
}
