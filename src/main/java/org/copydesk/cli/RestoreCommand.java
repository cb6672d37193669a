package org.copydesk.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseBackup;
import org.copydesk.db.DatabaseRestore;
import org.copydesk.db.Migrations;
import org.copydesk.review.AccountAdministration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk restore FILE}: a {@code copydesk backup} back into an empty database. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Restores a copydesk backup into an empty database: the data, everyone's account with their old",
                "password, and each account's rights from its role; then brings the schema up to this version.",
                "Run it as the database's owner. A backup of MariaDB restores into MariaDB or MySQL 8; MySQL 8's",
                "caching_sha2_password hashes only into MySQL (those people then need a new password elsewhere)."})
final class RestoreCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Parameters(index = "0", paramLabel = "FILE", description = "a file written by copydesk backup")
    Path file;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (InputStream in = Files.newInputStream(file);
             Database db = Database.open(database.resolve(), AppDirectories.forCurrentUser(), DataSources.PoolSize.of(2),
                     Database.SchemaAction.NONE)) {
            AccountAdministration accounts = AccountAdministration.of(db);
            accounts.whyNotTheOwner().ifPresent(reason -> {
                throw new Cli.CommandFailure(reason.replace("migrate the schema", "restore a backup")
                        .replace("copydesk db migrate", "copydesk restore"));
            });
            DatabaseBackup.Summary summary = DatabaseRestore.restore(db, in);
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return 0;
    }
}
