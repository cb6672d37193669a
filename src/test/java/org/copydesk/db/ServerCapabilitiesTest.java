package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jooq.SQLDialect;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The start-up decisions taken from {@code VERSION()}: which servers are refused and which get the
 * SKIP LOCKED claim strategy. The strings are what those servers really answer.
 */
class ServerCapabilitiesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # VERSION()                              | MariaDB | major | minor | patch | SKIP LOCKED | runs the schema
            5.7.44                                   | false   | 5     | 7     | 44    | false       | false
            5.7.44-log                               | false   | 5     | 7     | 44    | false       | false
            8.0.0-dmr                                | false   | 8     | 0     | 0     | false       | false
            8.0.1-dmr                                | false   | 8     | 0     | 1     | true        | false
            8.0.15                                   | false   | 8     | 0     | 15    | true        | false
            8.0.16                                   | false   | 8     | 0     | 16    | true        | true
            8.0.36                                   | false   | 8     | 0     | 36    | true        | true
            8.4.3                                    | false   | 8     | 4     | 3     | true        | true
            8.4.3-commercial                         | false   | 8     | 4     | 3     | true        | true
            10.2.44-MariaDB                          | true    | 10    | 2     | 44    | false       | false
            10.3.39-MariaDB                          | true    | 10    | 3     | 39    | false       | false
            10.5.23-MariaDB-1:10.5.23+maria~deb11    | true    | 10    | 5     | 23    | false       | false
            10.6.18-MariaDB                          | true    | 10    | 6     | 18    | true        | true
            10.6.18-MariaDB-log                      | true    | 10    | 6     | 18    | true        | true
            11.4.5-MariaDB                           | true    | 11    | 4     | 5     | true        | true
            11.4.5-MariaDB-ubu2404                   | true    | 11    | 4     | 5     | true        | true
            5.5.5-10.6.18-MariaDB                    | true    | 10    | 6     | 18    | true        | true
            5.5.5-10.5.23-MariaDB                    | true    | 10    | 5     | 23    | false       | false
            """)
    void readsTheVersionAndDecides(String version, boolean mariaDb, int major, int minor, int patch,
                                   boolean skipLocked, boolean schema) {
        ServerCapabilities caps = ServerCapabilities.parse(version);

        assertThat(caps.mariaDb()).as("MariaDB").isEqualTo(mariaDb);
        assertThat(caps.major()).as("major").isEqualTo(major);
        assertThat(caps.minor()).as("minor").isEqualTo(minor);
        assertThat(caps.patch()).as("patch").isEqualTo(patch);
        assertThat(caps.supportsSkipLocked()).as("SKIP LOCKED").isEqualTo(skipLocked);
        assertThat(caps.supportsSchema()).as("runs the schema").isEqualTo(schema);
        assertThat(caps.dialect()).isEqualTo(mariaDb ? SQLDialect.MARIADB : SQLDialect.MYSQL);
        assertThat(caps.product()).isEqualTo((mariaDb ? "MariaDB " : "MySQL ") + major + "." + minor + "." + patch);
    }

    /**
     * Connector/J binds date-times without their fractions when the handshake's version is below
     * MySQL 5.6.4; MariaDB 10.x's handshake says 5.5.5-10.x.y. The left column is what the driver
     * reports as {@code getDatabaseProductVersion()}.
     */
    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # handshake version                       | VERSION()                      | driver drops fractions
            5.5.5-10.11.19-MariaDB-0+deb12u1          | 10.11.19-MariaDB-0+deb12u1     | true
            5.5.5-10.6.18-MariaDB                     | 10.6.18-MariaDB                | true
            11.4.5-MariaDB                            | 11.4.5-MariaDB                 | false
            11.4.5-MariaDB-ubu2404                    | 11.4.5-MariaDB-ubu2404         | false
            8.0.16                                    | 8.0.16                         | false
            8.4.3                                     | 8.4.3                          | false
            5.6.3                                     | 5.6.3                          | true
            5.6.4                                     | 5.6.4                          | false
            """)
    void knowsWhenTheDriverDropsFractionalSeconds(String announced, String version, boolean drops) {
        assertThat(ServerCapabilities.parse(version, announced).driverDropsFractionalSeconds()).isEqualTo(drops);
    }

    /** Each refusal names the server, the exact minimum version and every missing feature with its release. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # VERSION()       | minimum        | missing features, each with the release that brought it
            5.7.44            | MySQL 8.0.16   | SELECT … FOR UPDATE SKIP LOCKED (editors never wait for each other's claims) arrived in MySQL 8.0.1; enforced CHECK constraints (the schema's rules on states, capacities and lease lengths) arrived in MySQL 8.0.16
            8.0.0-dmr         | MySQL 8.0.16   | SELECT … FOR UPDATE SKIP LOCKED (editors never wait for each other's claims) arrived in MySQL 8.0.1; enforced CHECK constraints (the schema's rules on states, capacities and lease lengths) arrived in MySQL 8.0.16
            8.0.15            | MySQL 8.0.16   | enforced CHECK constraints (the schema's rules on states, capacities and lease lengths) arrived in MySQL 8.0.16
            10.1.48-MariaDB   | MariaDB 10.6.0 | enforced CHECK constraints (the schema's rules on states, capacities and lease lengths) arrived in MariaDB 10.2.1; SELECT … FOR UPDATE SKIP LOCKED (editors never wait for each other's claims) arrived in MariaDB 10.6.0; OFFSET … FETCH, which jOOQ writes for MariaDB (not used on MySQL) arrived in MariaDB 10.6.0
            10.5.23-MariaDB   | MariaDB 10.6.0 | SELECT … FOR UPDATE SKIP LOCKED (editors never wait for each other's claims) arrived in MariaDB 10.6.0; OFFSET … FETCH, which jOOQ writes for MariaDB (not used on MySQL) arrived in MariaDB 10.6.0
            """)
    void refusesAnOldServerNamingTheMinimumAndEachMissingFeature(String version, String minimum, String missing) {
        ServerCapabilities caps = ServerCapabilities.parse(version);

        assertThat(caps.minimumVersion()).isEqualTo(minimum);
        assertThat(caps.refusal()).hasValue("This database server is " + caps.product() + ", which is too old for Copydesk: it needs "
                + minimum + " or newer. Missing: " + missing + ". (Copydesk runs on MySQL 8.0.16 or MariaDB 10.6 or newer.)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"8.0.16", "8.4.3", "10.6.0-MariaDB", "10.11.19-MariaDB", "11.4.5-MariaDB"})
    void acceptsEverySupportedServer(String version) {
        ServerCapabilities caps = ServerCapabilities.parse(version);

        assertThat(caps.refusal()).isEmpty();
        assertThat(caps.missingFeatures()).isEmpty();
    }

    @Test
    void anUnreadableVersionIsRefusedWithTheStringInTheMessage() {
        assertThatThrownBy(() -> ServerCapabilities.parse("banana"))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageContaining("'banana'");
    }

    @Test
    void comparesVersionsPartByPart() {
        ServerCapabilities caps = ServerCapabilities.parse("10.11.2-MariaDB");

        // 10.11 is newer than 10.6 although "10.11" < "10.6" as text
        assertThat(caps.atLeast(10, 6, 0)).isTrue();
        assertThat(caps.atLeast(10, 11, 2)).isTrue();
        assertThat(caps.atLeast(10, 11, 3)).isFalse();
        assertThat(caps.atLeast(11, 0, 0)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aGaleraNodeIsNamedAsSuch() {
        ServerCapabilities plain = ServerCapabilities.parse("10.11.18-MariaDB-0+deb12u1");
        assertThat(plain.galera()).isFalse();
        assertThat(plain.withGalera(true).galera()).isTrue();
        assertThat(plain.withGalera(true).product()).isEqualTo("MariaDB 10.11.18 (Galera cluster node)");
        assertThat(plain.withGalera(true).supportsSkipLocked()).isTrue();
    }
}
