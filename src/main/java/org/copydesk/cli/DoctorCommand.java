package org.copydesk.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.OwnerRights;
import org.copydesk.db.ServerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk doctor}: run with the database owner's account, says in one line whether it
 * holds every server right Copydesk's operations use, and which to grant when not; and one line
 * for each setting of the server or database that stops Copydesk ({@link ServerSettings}), with its
 * fix. Exit code 1 when anything is named.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Checks that the database owner's account holds every right Copydesk's operations use,"
                + " and the server's and database's settings.")
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
            List<String> settings = ServerSettings.problems(db);
            if (missing.isEmpty()) {
                spec.commandLine().getOut().println(line);
            } else {
                spec.commandLine().getErr().println("copydesk: " + line);
            }
            settings.forEach(problem -> spec.commandLine().getErr().println("copydesk: " + problem));
            return missing.isEmpty() && settings.isEmpty() ? 0 : 1;
        }
    }
}
