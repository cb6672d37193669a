package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What each role may do is the rows of {@code role_grant} (V11), read by the database's
 * {@code apply_role}: a change there is what accounts get, and the app's check notices an account
 * whose rights differ from them, missing or extra.
 */
@ExtendWith(DatabaseExtension.class)
class RoleGrantsTest {

    private static final String ANN = "rg_ann_" + ProcessHandle.current().pid();
    private static final String PASSWORD = "role-grants-1";

    private final TestDatabase db;
    private final DSLContext root;
    private final AccountAdministration accounts;

    RoleGrantsTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.accounts = new AccountAdministration(root);
    }

    @BeforeEach
    void anEditor() {
        org.copydesk.testing.Fixtures.emptyNewsroom(root);
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 2, List.of("news"));
        accounts.createAccount(ANN, PASSWORD.toCharArray());
    }

    @AfterEach
    void drop() {
        root.execute("delete from role_grant where role = 'editor' and object_name = 'outcome_feed'");
        root.execute("insert ignore into role_grant (role, privilege, object_name) values ('editor', 'SELECT', 'decision')");
        accounts.dropAccount(ANN);
        accounts.regrantExistingAccounts();
    }

    private String annReads(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.endpoint().accountUrl(db.name()), ANN, PASSWORD);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from " + table)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void theRowsOfRoleGrantAreWhatAnAccountGets() throws Exception {
        assertThat(accounts.everyAccountHasCurrentGrants()).isTrue();
        assertThat(annReads("decision")).isNotNull();
        assertThatThrownBy(() -> annReads("outcome_feed")).hasMessageContaining("denied");

        root.execute("delete from role_grant where role = 'editor' and object_name = 'decision'");
        root.execute("insert into role_grant (role, privilege, object_name) values ('editor', 'SELECT', 'outcome_feed')");
        assertThat(accounts.everyAccountHasCurrentGrants()).as("the rows changed, the account not yet").isFalse();
        accounts.regrantExistingAccounts();

        assertThat(accounts.everyAccountHasCurrentGrants()).isTrue();
        assertThatThrownBy(() -> annReads("decision")).hasMessageContaining("denied");
        assertThat(annReads("outcome_feed")).isNotNull();
    }

    @Test
    void aRightGivenBesideTheRowsIsNoticedAndTakenBackByTheRegrant() throws Exception {
        root.execute("grant select on `" + db.name() + "`.`outcome_event` to '" + ANN + "'@'%'");
        assertThat(accounts.everyAccountHasCurrentGrants()).as("an extra read").isFalse();
        accounts.regrantExistingAccounts();
        assertThat(accounts.everyAccountHasCurrentGrants()).isTrue();
        assertThatThrownBy(() -> annReads("outcome_event")).hasMessageContaining("denied");

        root.execute("revoke execute on procedure `" + db.name() + "`.`take_revision` from '" + ANN + "'@'%'");
        assertThat(accounts.everyAccountHasCurrentGrants()).as("a missing operation").isFalse();
    }
}
