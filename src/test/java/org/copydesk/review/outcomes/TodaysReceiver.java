package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.testing.Eventually.await;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.Database;

/**
 * The receiver written for the outcomes before stages and deadlines (the stand-in CMS), fed by a
 * relay on the relay account's own database: the proof that new kinds of events leave today's
 * receivers working. Every event of the feed is delivered, signed, once by key.
 */
final class TodaysReceiver {

    private static final byte[] SECRET = "a-shared-secret-of-the-cms".getBytes(StandardCharsets.UTF_8);

    private TodaysReceiver() {
    }

    /** The relay's own integration account, signed in as the relay signs in, over an empty feed. */
    static Database relayAccount(org.copydesk.testing.TestDatabase db, String account) {
        new org.copydesk.review.AccountAdministration(db.dsl()).createIntegrationAccount(account, "relay",
                "relay-password-1".toCharArray());
        db.dsl().deleteFrom(org.copydesk.db.schema.Tables.OUTCOME_EVENT).execute();
        return Database.open(db.endpoint().accountUrl(db.name()), account, "relay-password-1".toCharArray(), null,
                org.copydesk.db.DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null);
    }

    /** Runs a relay until every event of {@code feed} is delivered, then checks the receiver took each key once. */
    static void takesEveryEventOnce(Database relayDb, RelayState state, List<OutcomeEvent> feed, String relayName) throws Exception {
        try (StandInCms cms = new StandInCms(new WebhookSignature(SECRET), 0, false)) {
            RelaySettings settings = RelaySettings.defaults(cms.url()).withAttempts(20, Duration.ofMillis(50), Duration.ofMillis(400))
                    .withTiming(Duration.ofMillis(2000), Duration.ofMillis(50), Duration.ofSeconds(3));
            WebhookRelay relay = new WebhookRelay(new OutcomeServices(relayDb).relayProcedures(), new WebhookSignature(SECRET),
                    settings, relayName, Clock.systemUTC(), new Quiet());
            Thread thread = new Thread(() -> {
                try {
                    relay.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, relayName);
            thread.setDaemon(true);
            thread.start();
            await("every event is delivered", Duration.ofSeconds(60), () -> state.counts().delivered() == feed.size());
            relay.close();
            thread.join(10_000);
            assertThat(cms.processedInOrder()).extracting(StandInCms.Processed::key)
                    .containsExactlyInAnyOrderElementsOf(feed.stream().map(OutcomeEvent::idempotencyKey).toList());
            assertThat(cms.badSignatures.get()).isZero();
        }
    }

    private static final class Quiet implements WebhookRelay.Listener {
        @Override
        public void attempted(OutcomeEvent event, RelayProcedures.Delivery delivery, String answer) {
        }

        @Override
        public void waitingForLease(String holder, LocalDateTime until) {
        }

        @Override
        public void databaseTrouble(String message) {
        }
    }
}
