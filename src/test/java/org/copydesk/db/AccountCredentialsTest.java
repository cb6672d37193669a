package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A backup file is data from outside: the account statements a restore builds from it take only
 * checked names, listed plugins and hexadecimal hashes, and refuse anything else before a
 * statement exists (no connection is needed to refuse).
 */
class AccountCredentialsTest {

    @Test
    void aTamperedBackupCannotBuildAnAccountStatement() {
        for (String name : new String[] {"x'@'%' IDENTIFIED BY 'y", "root", "ROOT", "a b", "", "a".repeat(65)}) {
            assertThatThrownBy(() -> AccountCredentials.write(null, new AccountCredentials.Credential(name, "mysql_native_password",
                    "2A"), true)).as(name).isInstanceOf(DatabaseSetupException.class).hasMessageContaining("never makes");
        }
        for (String hash : new String[] {"2a", "2A' OR '1", "ZZ", "2"}) {
            assertThatThrownBy(() -> AccountCredentials.write(null, new AccountCredentials.Credential("ann", "mysql_native_password",
                    hash), true)).as(hash).isInstanceOf(DatabaseSetupException.class).hasMessageContaining("damaged");
        }
    }

    @Test
    void aHashOrPluginAServerCannotTakeMakesNoAccount() throws Exception {
        // a hash with a quote in it (as hex) on MariaDB, which takes printable hashes only
        assertThat(AccountCredentials.write(null, new AccountCredentials.Credential("ann", "mysql_native_password", "2A27"), true))
                .isEmpty();
        // MySQL's caching_sha2_password on MariaDB; a plugin of neither family
        assertThat(AccountCredentials.write(null, new AccountCredentials.Credential("ann", "caching_sha2_password", "2A"), true))
                .isEmpty();
        assertThat(AccountCredentials.write(null, new AccountCredentials.Credential("ann", "auth_socket", ""), false)).isEmpty();
    }
}
