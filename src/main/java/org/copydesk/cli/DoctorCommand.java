package org.copydesk.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.OwnerRights;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk doctor}: run with the database owner's account, says in one line whether it
 * holds every server right Copydesk's operations use, and which to grant when not (exit code 1).
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Checks that the database owner's account holds every right Copydesk's operations use.")
final class DoctorCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        DatabaseConfig config = database.resolve();
        try (Database db = Database.open(config, AppDirectories.forCurrentUser(), DataSources.PoolSize.of(1),
                Database.SchemaAction.NONE)) {
            List<OwnerRights.Missing> missing = OwnerRights.missing(db);
            String line = OwnerRights.describe(OwnerRights.currentAccount(db), missing);
            if (missing.isEmpty()) {
                spec.commandLine().getOut().println(line);
                return 0;
            }
            spec.commandLine().getErr().println("copydesk: " + line);
            return 1;
        }
    }
}
