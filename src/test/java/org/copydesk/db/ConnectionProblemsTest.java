package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.copydesk.lease.RetryPolicy;
import org.copydesk.lease.SqlFailure;
import org.copydesk.lease.TransientErrors;
import org.junit.jupiter.api.Test;

/**
 * A server that answers and refuses the connection (TLS only, a certificate not the trusted one, a
 * password that would travel unencrypted) is not a lost connection, although the driver reports it
 * with a connection's SQL state: signing in does not try it again, and says the refusal instead of
 * "the connection was cut each time".
 */
class ConnectionProblemsTest {

    private static final String URL = "jdbc:mysql://db.example:3306/copydesk?sslMode=VERIFY_CA";

    private static SQLException certificateRefused() {
        return new SQLNonTransientConnectionException("Communications link failure", "08S01",
                new SSLHandshakeException("PKIX path building failed"));
    }

    private static SQLException tlsOnly() {
        return new SQLNonTransientConnectionException(
                "Connections using insecure transport are prohibited while --require_secure_transport=ON.", "08004", 3159);
    }

    private static SQLException cut() {
        return new SQLNonTransientConnectionException("Communications link failure\n\nThe last packet successfully received"
                + " from the server was 3 milliseconds ago.", "08S01");
    }

    @Test
    void aRefusalWhileConnectingIsNotALostConnectionAndIsNotTriedAgain() {
        for (SQLException refusal : new SQLException[] {certificateRefused(), tlsOnly()}) {
            DatabaseSetupException explained = ConnectionProblems.explain(URL, "ann", refusal);
            assertThat(SqlFailure.of(explained)).as("the driver's word for it").isEqualTo(SqlFailure.CONNECTION_LOST);
            assertThat(ConnectionProblems.connectionLost(explained)).as(refusal.getMessage()).isFalse();

            RuntimeException recognised = ConnectionProblems.recognised(explained);
            assertThat(SqlFailure.of(recognised)).isNotEqualTo(SqlFailure.CONNECTION_LOST);
            assertThat(recognised).hasMessage(explained.getMessage()).hasNoCause();
            assertThat(recognised.getSuppressed()).containsExactly(explained);

            int[] tries = {0};
            TransientErrors retries = new TransientErrors(RetryPolicy.defaults().withReconnectFor(Duration.ofMinutes(1)));
            try {
                retries.retrying("sign in", true, () -> {
                    tries[0]++;
                    throw ConnectionProblems.recognised(explained);
                });
            } catch (DatabaseSetupException e) {
                assertThat(e).hasMessage(explained.getMessage());
            }
            assertThat(tries[0]).as("tried once").isEqualTo(1);
        }
    }

    @Test
    void aConnectionCutWhileConnectingIsStillALostConnection() {
        DatabaseSetupException explained = ConnectionProblems.explain(URL, "ann", cut());
        assertThat(ConnectionProblems.connectionLost(explained)).isTrue();
        assertThat(ConnectionProblems.recognised(explained)).isSameAs(explained);
        assertThat(explained.getMessage()).contains("was cut while connecting");
    }

    /** Whatever form a password takes in the URL, a message that names the URL shows none of it. */
    @Test
    void aPasswordInTheUrlIsNotRepeatedInAMessageWhateverItsForm() {
        for (String url : new String[] {"jdbc:mysql://db.example:3306/copydesk?password=Sekrit1&sslMode=REQUIRED",
                "jdbc:mysql://ann:Sekrit1@db.example:3306/copydesk", "jdbc:mysql://address=(host=db.example)(password=Sekrit1)/copydesk",
                "jdbc:mysql://(host=db.example,password=Sekrit1,port=3306)/copydesk",
                "jdbc:mysql://db.example/copydesk?Password2=Sekrit1"}) {
            assertThat(ConnectionProblems.explain(url, "ann", cut()).getMessage()).as(url).doesNotContain("Sekrit1");
            assertThat(new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, url, "ann", null, null).urlHoldsPassword()).as(url).isTrue();
        }
        assertThat(new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, "jdbc:mysql://db.example/copydesk?user=ann", null, null, null)
                .urlHoldsPassword()).isFalse();
    }
}
