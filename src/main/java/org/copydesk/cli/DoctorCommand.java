package org.copydesk.cli;

import java.util.List;
import org.copydesk.db.Database;
import org.copydesk.db.DirectorySignIn;
import org.copydesk.db.OwnerRights;
import org.copydesk.db.ServerSettings;
import picocli.CommandLine.Command;

/**
 * {@code copydesk doctor}: run with the database owner's account, says in one line whether it
 * holds every server right Copydesk's operations use, and which to grant when not; and one line
 * for each setting of the server or database that stops Copydesk ({@link ServerSettings}), with its
 * fix. Exit code 1 when anything is named.
 */
@Command(name = "doctor",
        description = "Checks that the database owner's account holds every right Copydesk's operations use,"
                + " and the server's and database's settings.")
final class DoctorCommand extends DatabaseCommand<Database> {

    DoctorCommand() {
        super(DatabaseAccess.AS_IT_IS);
    }

    @Override
    ExitCode run(Database db) {
        List<OwnerRights.Missing> missing = OwnerRights.missing(db);
        String line = OwnerRights.describe(OwnerRights.currentAccount(db), missing);
        List<String> settings = ServerSettings.problems(db);
        if (missing.isEmpty()) {
            out().println(line);
        } else {
            err().println("copydesk: " + line);
        }
        settings.forEach(problem -> err().println("copydesk: " + problem));
        out().println(DirectorySignIn.describe(db));
        return missing.isEmpty() && settings.isEmpty() ? ExitCode.OK : ExitCode.FAILED;
    }
}
