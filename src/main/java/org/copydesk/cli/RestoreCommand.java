package org.copydesk.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseBackup;
import org.copydesk.db.DatabaseRestore;
import org.copydesk.db.Migrations;
import org.copydesk.review.AccountAdministration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code copydesk restore FILE}: a {@code copydesk backup} back into an empty database. */
@Command(name = "restore",
        description = {"Restores a copydesk backup into an empty database: the data, everyone's account with their old",
                "password, and each account's rights from its role; then brings the schema up to this version.",
                "Run it as the database's owner. A backup of MariaDB restores into MariaDB or MySQL 8; MySQL 8's",
                "caching_sha2_password hashes only into MySQL (those people then need a new password elsewhere)."})
final class RestoreCommand extends DatabaseCommand<Database> {

    /**
     * A backup holds the data and the accounts, never the server's TLS private key: a backup file is
     * copied and kept in more places than a key should be. So a restore onto a new server says what
     * desktops that pin the old server's certificate need (install.md, "Moving to a new server").
     */
    static final String TLS_IDENTITY_NOT_IN_BACKUP = "The backup holds no TLS certificate. On a new server shared with --bind,"
            + " desktops that pinned the old one's are refused until either the old server's tls folder (its private key:"
            + " copy it as the secret it is, owner only) replaces %s before copydesk server starts, or each desktop gets"
            + " this server's copydesk-server.p12.";

    @Parameters(index = "0", paramLabel = "FILE", description = "a file written by copydesk backup")
    Path file;

    RestoreCommand() {
        super(DatabaseAccess.owner("restore a backup"));
    }

    /** A file that cannot be read is said before the database is reached. */
    @Override
    void beforeOpening() throws IOException {
        Files.newInputStream(file).close();
    }

    @Override
    ExitCode run(Database db) throws IOException {
        PrintWriter out = out();
        AccountAdministration accounts = AccountAdministration.of(db);
        DatabaseBackup.Summary summary;
        try (InputStream in = Files.newInputStream(file)) {
            summary = DatabaseRestore.restore(db, in);
        }
        Migrations.Outcome outcome = db.migrate();
        int regranted = accounts.regrantExistingAccounts();
        out.println("Restored " + file + ": " + summary.totalRows() + " rows in " + summary.rows().size() + " tables (schema version "
                + summary.schemaVersion() + (outcome.applied() > 0 ? ", now " + outcome.schemaVersion() : "") + "); "
                + summary.accounts().size() + " accounts with their old passwords, " + regranted
                + " given the rights of their roles.");
        if (!summary.accountsWithoutPassword().isEmpty()) {
            out.println("These accounts could not be restored on this server and need a new password (copydesk editors"
                    + " set-password NAME --password): " + String.join(", ", summary.accountsWithoutPassword()) + ".");
        }
        if (!summary.serversOwnAccounts().isEmpty()) {
            out.println("These names are accounts of the server itself (for one host only, or with rights on the whole"
                    + " server), which Copydesk does not change: left as they were: "
                    + String.join(", ", summary.serversOwnAccounts()) + ".");
        }
        out.println(TLS_IDENTITY_NOT_IN_BACKUP.formatted(AppDirectories.forCurrentUser().embeddedServer().resolve("tls")));
        return ExitCode.OK;
    }
}
