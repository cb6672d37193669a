package org.copydesk.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.Migrations;
import org.copydesk.db.OwnerRights;
import org.copydesk.review.AccountAdministration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code copydesk db migrate}: brings the schema up to this version (needs an account with DDL rights). */
@Command(name = "db", mixinStandardHelpOptions = true, description = "Database administration.",
        subcommands = DbCommand.Migrate.class)
final class DbCommand {

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = "Applies pending schema migrations. Run as an admin account after upgrading Copydesk.")
    static final class Migrate implements Callable<Integer> {

        @Mixin
        DatabaseOptions database;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            DatabaseConfig config = database.resolve();
            try (Database db = Database.open(config, AppDirectories.forCurrentUser(), DataSources.PoolSize.of(2),
                    Database.SchemaAction.NONE)) {
                AccountAdministration accounts = AccountAdministration.of(db);
                accounts.whyNotTheOwner().ifPresent(reason -> {
                    throw new Cli.CommandFailure(reason);
                });
                Migrations.Outcome outcome = db.migrate();
                outcome.endedSessions().forEach(spec.commandLine().getOut()::println);
                spec.commandLine().getOut().println("Schema at version " + outcome.schemaVersion() + " ("
                        + outcome.applied() + " migration(s) applied) on " + db.capabilities().product() + ".");
                if (!accounts.everyAccountHasCurrentGrants()) {
                    int regranted = accounts.regrantExistingAccounts();
                    spec.commandLine().getOut().println("Gave " + regranted + " account(s) the rights of this version.");
                }
                // the migration is done either way; a right the sweep needs is named in one line (copydesk doctor says the same)
                List<OwnerRights.Missing> missing = OwnerRights.missing(db);
                if (!missing.isEmpty()) {
                    spec.commandLine().getErr().println("copydesk: " + OwnerRights.describe(OwnerRights.currentAccount(db), missing));
                }
            }
            return 0;
        }
    }
}
