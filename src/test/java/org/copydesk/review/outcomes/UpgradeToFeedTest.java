package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.Migrations;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestServer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * An existing newsroom upgraded from schema 4: V5 re-creates decide_article, and dropping a routine
 * takes its EXECUTE grants with it, so the migration regrants every account; and the check that
 * {@code copydesk db migrate} and the embedded server run looks at every operation of a role, so a
 * grant lost any other way is noticed too.
 */
class UpgradeToFeedTest {

    @Test
    void accountsFromSchemaFourAreRegrantedAndTheirDecisionsReachTheFeed() throws Exception {
        TestServer.Endpoint server = TestServer.endpoint();
        String name = "t_upgrade_feed_" + ProcessHandle.current().pid();
        String editor = "up_ann_" + ProcessHandle.current().pid();
        String reader = "up_reader_" + ProcessHandle.current().pid();
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        try (Database db = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            Flyway.configure().dataSource(db.dataSource()).locations("classpath:db/migration").target("4").load().migrate();
            Newsroom newsroom = new Newsroom(db.dsl());
            // the desk row as schema 4 has it (Newsroom reads today's desk columns)
            db.dsl().insertInto(org.copydesk.db.schema.Tables.DESK, org.copydesk.db.schema.Tables.DESK.ID,
                    org.copydesk.db.schema.Tables.DESK.NAME, org.copydesk.db.schema.Tables.DESK.LEASE_SECONDS,
                    org.copydesk.db.schema.Tables.DESK.MAX_LEASE_SECONDS).values("news", "News", 1800, 14400).execute();
            newsroom.addEditor(editor, "Ann", Role.EDITOR, 3, List.of("news"));
            AccountAdministration accounts = new AccountAdministration(db.dsl());
            accounts.createAccount(editor, "upgrade-secret-1".toCharArray());
            try {
                assertThat(accounts.everyAccountHasCurrentGrants()).as("at schema 4, before V5's grants exist").isFalse();
                new Migrations(db.dataSource()).migrate();
                assertThat(accounts.everyAccountHasCurrentGrants()).as("the migration regranted every account").isTrue();

                // re-creating a routine takes its grants with it: the check looks at every operation of the role
                db.dsl().execute("revoke execute on procedure `" + name + "`.`decide_article` from '" + editor + "'@'%'");
                assertThat(accounts.everyAccountHasCurrentGrants()).isFalse();
                assertThat(accounts.regrantExistingAccounts()).isEqualTo(1);
                assertThat(accounts.everyAccountHasCurrentGrants()).isTrue();
                accounts.createIntegrationAccount(reader, "feed_reader", "upgrade-secret-12".toCharArray());
                assertThat(accounts.regrantExistingAccounts()).as("people and other systems").isEqualTo(2);

                long article = Fixtures.articles(db.dsl(), "news", 1, 3, -60).get(0);
                try (Connection c = DriverManager.getConnection(server.accountUrl(name), editor, "upgrade-secret-1");
                     Statement s = c.createStatement()) {
                    ResultSet claimed = s.executeQuery("call claim_articles(null, null, null, null, null)");
                    assertThat(claimed.next()).isTrue();
                    assertThat(s.getMoreResults()).isTrue();
                    ResultSet held = s.getResultSet();
                    assertThat(held.next()).isTrue();
                    long token = held.getLong("lease_token");
                    ResultSet decided = s.executeQuery("call decide_article(null, " + article + ", " + token + ", '"
                            + java.util.UUID.randomUUID() + "', 'approve', '')");
                    assertThat(decided.next()).isTrue();
                    assertThat(decided.getString("outcome")).isEqualTo("recorded");
                    // V11: the feed is for supervisors and feed readers, not editors
                    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> s.executeQuery("select outcome from outcome_feed")))
                            .hasMessageContaining("denied");
                }
                try (Connection c = DriverManager.getConnection(server.accountUrl(name), reader, "upgrade-secret-12");
                     Statement s = c.createStatement()) {
                    ResultSet feed = s.executeQuery("select outcome from outcome_feed");
                    assertThat(feed.next()).isTrue();
                    assertThat(feed.getString(1)).isEqualTo("approved");
                }
            } finally {
                accounts.dropAccount(editor);
                if (db.dsl().fetchCount(db.dsl().selectOne().from("integration_account").where("name = ?", reader)) > 0) {
                    accounts.dropIntegrationAccount(reader);
                }
            }
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }
}
