package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.copydesk.db.DataSources;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TcpProxy;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Signing in survives a connection cut on the way (a killed connection, a server restarting): the
 * sign-in is tried again as the rest of the app tries again, and when that does not help it says
 * the one true sentence. The cuts come from a {@link TcpProxy} that drops one connection at a
 * chosen point of the conversation: a sign-in is about 75 chunks (the pool's first connection, the
 * server's capabilities, Flyway's schema check, who is signing in, the desks), and each point used
 * to fail it, most with a wrong sentence ("Cannot reach the database at (pool)", "The database
 * refused this: Connection is closed").
 */
@ExtendWith(DatabaseExtension.class)
class SignInTest {

    private static final String USER = "si_ann";
    private static final char[] PASSWORD = "si-ann-pass".toCharArray();

    private final TestDatabase db;
    private final ReviewSession admin;
    private TcpProxy proxy;
    private String url;

    SignInTest(TestDatabase db) {
        this.db = db;
        this.admin = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        Fixtures.emptyNewsroom(db.dsl());
        admin.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        admin.newsroom().addEditor(USER, "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        admin.accounts().createAccount(USER, PASSWORD);
        proxy = new TcpProxy("127.0.0.1", db.endpoint().port());
        url = db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name());
    }

    @AfterEach
    void dropAccount() throws Exception {
        proxy.close();
        admin.accounts().dropAccount(USER);
    }

    @Test
    void aConnectionCutAtAnyPointOfSigningInIsTriedAgainAndTheSignInGoesThrough() {
        List<String> failed = new ArrayList<>();
        for (int chunk : IntStream.iterate(1, k -> k <= 75, k -> k + 3).toArray()) {
            proxy.dropOnceAfter(chunk);
            try (ReviewSession session = SignIn.to(url, USER).signIn(USER, PASSWORD).session()) {
                assertThat(session.sessionUser()).isEqualTo(USER);
            } catch (RuntimeException e) {
                failed.add("cut after chunk " + chunk + ": " + ConnectionTrouble.describe(e));
            }
        }
        assertThat(failed).isEmpty();
    }

    @Test
    void aSignInWhoseConnectionIsCutEveryTimeGivesUpWithOneTrueSentence() {
        proxy.dropChance(1.0); // the server answers, and every connection is cut at once

        assertThatThrownBy(() -> SignIn.to(url, USER).reconnectingFor(Duration.ofSeconds(2)).signIn(USER, PASSWORD))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessage("Signing in to the database at 127.0.0.1:" + proxy.port() + "/" + db.name() + " did not finish: the"
                        + " connection was cut each time it was tried for 2 s (the server restarting or stopping, or the network"
                        + " or an admin ending connections). Check that the server runs, then sign in again.");
    }

    @Test
    void aServerThatCannotBeReachedIsSaidToBeUnreachable() throws Exception {
        proxy.close(); // nothing listens there any more

        assertThatThrownBy(() -> SignIn.to(url, USER).reconnectingFor(Duration.ofSeconds(1)).signIn(USER, PASSWORD))
                .hasMessage("Cannot reach the database at 127.0.0.1:" + proxy.port() + "/" + db.name()
                        + ". Check that the server is running and the host and port are right.");
    }

    @Test
    void theCapabilityProbeNamesTheDatabaseItCouldNotReach() {
        try (HikariDataSource pool = DataSources.create(url, USER, PASSWORD, null, DataSources.PoolSize.of(1), "probe")) {
            pool.getHikariPoolMXBean().softEvictConnections();
            proxy.cut();

            assertThatThrownBy(() -> DataSources.probe(pool)).isInstanceOf(DatabaseSetupException.class)
                    .hasMessageContaining("127.0.0.1:" + proxy.port()).hasMessageNotContaining("(pool)");
        }
    }
}
