package org.copydesk.cli;

import java.util.List;
import org.copydesk.db.Database;
import org.copydesk.db.Migrations;
import org.copydesk.db.OwnerRights;
import org.copydesk.review.AccountAdministration;
import picocli.CommandLine.Command;

/** {@code copydesk db migrate}: brings the schema up to this version (needs an account with DDL rights). */
@Command(name = "db", mixinStandardHelpOptions = true, description = "Database administration.",
        subcommands = DbCommand.Migrate.class)
final class DbCommand {

    private DbCommand() {
    }

    @Command(name = "migrate",
            description = "Applies pending schema migrations. Run as an admin account after upgrading Copydesk.")
    static final class Migrate extends DatabaseCommand<Database> {

        Migrate() {
            super(DatabaseAccess.owner("migrate the schema"));
        }

        @Override
        ExitCode run(Database db) {
            AccountAdministration accounts = AccountAdministration.of(db);
            Migrations.Outcome outcome = db.migrate();
            outcome.endedSessions().forEach(out()::println);
            out().println("Schema at version " + outcome.schemaVersion() + " (" + outcome.applied() + " migration(s) applied) on "
                    + db.capabilities().product() + ".");
            if (!accounts.everyAccountHasCurrentGrants()) {
                int regranted = accounts.regrantExistingAccounts();
                out().println("Gave " + regranted + " account(s) the rights of this version.");
            }
            // the migration is done either way; a right the sweep needs is named in one line (copydesk doctor says the same)
            List<OwnerRights.Missing> missing = OwnerRights.missing(db);
            if (!missing.isEmpty()) {
                err().println("copydesk: " + OwnerRights.describe(OwnerRights.currentAccount(db), missing));
            }
            return ExitCode.OK;
        }
    }
}
