package org.copydesk.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.copydesk.db.DatabaseConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/** {@code copydesk}: without a command the desktop app opens; with one, it runs here. */
@Command(name = "copydesk", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Hands out editorial review work fairly and safely.",
                "Run without a command to open the desktop app (on the embedded database unless one is configured)."},
        subcommands = {ServerCommand.class, DbCommand.class, ImportCommand.class, ReleaseDaemonCommand.class,
                StatusCommand.class, EditorsCommand.class, DesksCommand.class, ClaimCommand.class, DecideCommand.class,
                PurgeCommand.class, FeedCommand.class, RelayCommand.class, IntegrationsCommand.class, WaitingCommand.class,
                WithdrawCommand.class, BackupCommand.class, RestoreCommand.class,
                QuarantineCommand.class, DoctorCommand.class, PeopleCommand.class, StagesCommand.class, DueCommand.class,
                picocli.CommandLine.HelpCommand.class})
public final class CopydeskCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    private final Consumer<DatabaseConfig> openApp;
    private final Map<String, String> environment;

    CopydeskCommand(Consumer<DatabaseConfig> openApp, Map<String, String> environment) {
        this.openApp = openApp;
        this.environment = Map.copyOf(environment);
    }

    /** The environment the database settings are read from (the process's, unless a test gives one). */
    Map<String, String> environment() {
        return environment;
    }

    /** The environment of the command line {@code command} belongs to (the process's when it has no root). */
    static Map<String, String> environment(CommandSpec command) {
        return command != null && command.root().userObject() instanceof CopydeskCommand root ? root.environment() : System.getenv();
    }

    @Override
    public Integer call() {
        openApp.accept(database.resolve());
        return 0;
    }
}
