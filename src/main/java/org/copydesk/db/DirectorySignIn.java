package org.copydesk.db;

import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * Whether this database server can sign people in with the newsroom's directory (docs/install.md,
 * "Directory sign-in"): MariaDB with its auth_pam plugin active, asking for the password in clear
 * ({@code pam_use_cleartext_plugin}: the driver speaks no other PAM dialogue, and sends it only over TLS).
 */
public final class DirectorySignIn {

    private DirectorySignIn() {
    }

    /** Whether the server's auth_pam plugin is active (then create_directory_account can work). */
    public static boolean available(Database db) {
        DSLContext dsl = db.dsl();
        return dsl.fetchExists(dsl.selectOne().from("information_schema.plugins")
                .where("plugin_name = 'pam' and plugin_status = 'ACTIVE' and plugin_type = 'AUTHENTICATION'"));
    }

    /** One line for {@code copydesk doctor}. */
    public static String describe(Database db) {
        DSLContext dsl = db.dsl();
        if (!available(db)) {
            return "Directory sign-in: not on this server (no active auth_pam plugin: MySQL Community has none; MariaDB"
                    + " loads it with plugin-load-add = auth_pam); people sign in with passwords.";
        }
        Record cleartext = dsl.fetchOne("show global variables like 'pam_use_cleartext_plugin'");
        if (cleartext == null || !"ON".equalsIgnoreCase(cleartext.get(1, String.class))) {
            return "Directory sign-in: auth_pam is active but pam_use_cleartext_plugin is OFF, which Copydesk's clients cannot"
                    + " answer; set pam-use-cleartext-plugin = ON (docs/install.md, \"Directory sign-in\").";
        }
        return "Directory sign-in: available (auth_pam, PAM service copydesk); directory accounts sign in over TLS only.";
    }
}
