package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.db.DatabaseSetupException;
import org.copydesk.lease.SqlFailure;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A person who signs in while the server has no connection to spare (every one of its
 * {@code max_connections} in use: error 1040, "Too many connections") is told that, in one sentence
 * naming the limit, not that the server cannot be reached. The run's real server is made small for
 * the test ({@code SET GLOBAL max_connections}, put back afterwards) and filled with connections.
 */
@ExtendWith(DatabaseExtension.class)
class ServerFullSignInTest {

    /** Connections the test opens at most while filling the server: far more than the small limit it sets. */
    static final int MOST_CONNECTIONS = 200;
    private static final String USER = "cd_full_" + ProcessHandle.current().pid();
    private static final String PASSWORD = "Full-Pw-" + ProcessHandle.current().pid();

    private final TestDatabase db;

    ServerFullSignInTest(TestDatabase db) {
        this.db = db;
    }

    @Test
    void signingInToAFullServerSaysTheServerHasNoRoomForAnotherConnection() throws Exception {
        db.endpoint().execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
        db.endpoint().execute("GRANT SELECT ON `" + db.name() + "`.* TO '" + USER + "'@'%'");
        List<Connection> filling = new ArrayList<>();
        try (Connection admin = db.endpoint().adminConnection(); Statement s = admin.createStatement()) {
            long limit = value(s, "select @@global.max_connections", 1);
            try {
                long connected = value(s, "show global status like 'Threads_connected'", 2);
                s.execute("SET GLOBAL max_connections = " + (connected + 3));
                SQLException refused = null;
                while (refused == null && filling.size() < MOST_CONNECTIONS) {
                    try {
                        filling.add(db.endpoint().adminConnection());
                    } catch (SQLException e) {
                        refused = e;
                    }
                }
                assertThat((Throwable) refused).as("the server refused a connection once full").isNotNull();
                assertThat(refused.getErrorCode()).as(refused.getMessage()).isEqualTo(1040);
                assertThat(SqlFailure.of(refused)).isEqualTo(SqlFailure.SERVER_FULL);

                Throwable failure = catchThrowable(() -> SignIn.to(db.endpoint().accountUrl(db.name()), USER)
                        .open(USER, PASSWORD.toCharArray()).close());

                assertThat(failure).isInstanceOf(DatabaseSetupException.class);
                assertThat(ConnectionTrouble.describe(failure))
                        .isEqualTo(Phrase.of("review.trouble.serverFull").text())
                        .contains("no room for another connection", "max_connections")
                        .doesNotContain("Cannot reach");
                assertThat(ConnectionTrouble.isConnectionLost(failure)).isFalse();
            } finally {
                for (Connection c : filling) {
                    c.close();
                }
                s.execute("SET GLOBAL max_connections = " + limit);
                s.execute("DROP USER IF EXISTS '" + USER + "'@'%'");
            }
        }
    }

    private static long value(Statement s, String query, int column) throws SQLException {
        try (ResultSet r = s.executeQuery(query)) {
            r.next();
            return r.getLong(column);
        }
    }
}
