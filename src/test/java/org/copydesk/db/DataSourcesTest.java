package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The TLS default: a server over the network is encrypted and verified unless the settings say otherwise. */
class DataSourcesTest {

    @Test
    void aServerOverTheNetworkIsVerifiedByDefault() {
        assertThat(DataSources.defaultSslMode("jdbc:mysql://db.newsroom.example:3306/copydesk")).isEqualTo("VERIFY_IDENTITY");
        assertThat(DataSources.defaultSslMode("jdbc:mysql://10.0.0.5/copydesk")).isEqualTo("VERIFY_IDENTITY");
        assertThat(DataSources.defaultSslMode("jdbc:mysql://[2001:db8::1]:3306/copydesk")).isEqualTo("VERIFY_IDENTITY");
    }

    @Test
    void loopbackAndUrlsThatChooseForThemselvesKeepTheirOwn() {
        assertThat(DataSources.defaultSslMode("jdbc:mysql://127.0.0.1:3306/copydesk")).isNull();
        assertThat(DataSources.defaultSslMode("jdbc:mysql://localhost/copydesk")).isNull();
        assertThat(DataSources.defaultSslMode("jdbc:mysql://[::1]:3306/copydesk")).isNull();
        assertThat(DataSources.defaultSslMode("jdbc:mysql://db.example/copydesk?sslMode=REQUIRED")).isNull();
        assertThat(DataSources.defaultSslMode("jdbc:mysql://db.example/copydesk?useSSL=false")).isNull();
    }

    @Test
    void aClusterUrlNamesEachNodeInOrder() {
        assertThat(DataSources.hosts("jdbc:mysql://db1.example:3306,db2.example:3307,[2001:db8::3]:3306/copydesk?x=1"))
                .containsExactly("db1.example", "db2.example", "2001:db8::3");
        assertThat(DataSources.hosts("jdbc:mysql://db.example/copydesk")).containsExactly("db.example");
        assertThat(DataSources.hosts("jdbc:mariadb://db.example/copydesk")).isEmpty();
    }

    @Test
    void aClusterIsVerifiedUnlessEveryNodeIsOnThisComputer() {
        assertThat(DataSources.defaultSslMode("jdbc:mysql://127.0.0.1:3306,db2.example:3306/copydesk")).isEqualTo("VERIFY_IDENTITY");
        assertThat(DataSources.defaultSslMode("jdbc:mysql://127.0.0.1:3306,127.0.0.1:3307,localhost:3308/copydesk")).isNull();
    }
}
