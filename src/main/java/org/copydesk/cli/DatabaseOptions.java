package org.copydesk.cli;

import java.util.Map;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.db.EmbeddedServer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where the database is and as whom: the one option group every database command mixes in (through
 * {@link DatabaseCommand}; {@link DatabaseAccess} opens it). Precedence: these options, then
 * COPYDESK_DB_URL / COPYDESK_DB_USER / COPYDESK_DB_PASSWORD / COPYDESK_DB_SSL_MODE, then the
 * per-user config file, then the embedded server. A password may also come from a file
 * ({@code --db-password-file}, COPYDESK_DB_PASSWORD_FILE) that only its owner and group can read: a
 * service's, so that it is on no command line and in no environment file.
 */
final class DatabaseOptions {

    @Option(names = "--db-url", paramLabel = "JDBC_URL", description = "e.g. jdbc:mysql://db.example:3306/copydesk")
    String url;

    @Option(names = "--db-user", paramLabel = "USER", description = "database account")
    String user;

    // arity 0: asked for, never a command-line value (the process list and the shell history would show it)
    @Option(names = "--db-password", interactive = true, arity = "0",
            description = "ask for the password (or set COPYDESK_DB_PASSWORD)")
    char[] password;

    @Option(names = "--db-password-file", paramLabel = "FILE",
            description = "read the password from the first line of FILE, which others may not read (or set "
                    + PasswordFile.ENV + ")")
    String passwordFile;

    @Option(names = "--ssl-mode", paramLabel = "MODE", description = "DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY")
    String sslMode;

    /** The command this option group belongs to; its root carries the environment to read. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    DatabaseConfig resolve() {
        AppDirectories dirs = AppDirectories.forCurrentUser();
        DatabaseOptions before = givenBeforeTheCommand();
        DatabaseConfig config = new DatabaseConfigResolver(environment(), dirs.configFile())
                .resolve(new DatabaseConfigResolver.CommandLine(either("--db-url", url, before.url), either("--db-user", user, before.user),
                        givenPassword(before), either("--ssl-mode", sslMode, before.sslMode)));
        refusePasswordInUrl(config, dirs);
        return config;
    }

    /**
     * {@link #resolve()} for a command: an account named (--db-user, COPYDESK_DB_USER) with no URL
     * anywhere signs in as that account to the Copydesk server running on this computer, as a
     * service does under its own account. It was once ignored, and the command ran as the server's
     * administrator instead.
     */
    DatabaseConfig resolveForCommand() {
        DatabaseConfig config = resolve();
        DatabaseOptions before = givenBeforeTheCommand();
        String named = either("--db-user", user, before.user);
        if (named == null || named.isBlank()) {
            named = environment().get(DatabaseConfigResolver.USER_ENV);
        }
        if (!config.isEmbedded() || named == null || named.isBlank()) {
            return config;
        }
        String account = named.trim();
        EmbeddedServer server = EmbeddedServer.findRunning(AppDirectories.forCurrentUser().embeddedServer())
                .orElseThrow(() -> new Cli.CommandFailure("The account " + account + " is named, but no Copydesk server runs on"
                        + " this computer and no --db-url (or " + DatabaseConfigResolver.URL_ENV + ") names another database;"
                        + " start copydesk server, or name the database."));
        char[] secret = givenPassword(before);
        if (secret == null) {
            String fromEnvironment = environment().get(DatabaseConfigResolver.PASSWORD_ENV);
            secret = fromEnvironment == null ? null : fromEnvironment.toCharArray();
        }
        return new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, server.userJdbcUrl(Database.EMBEDDED_SCHEMA), account, secret, null);
    }

    /** The password asked for or read from a password file (option or environment), else null (then COPYDESK_DB_PASSWORD counts). */
    private char[] givenPassword(DatabaseOptions before) {
        char[] asked = password != null ? password : before.password;
        String file = either("--db-password-file", passwordFile, before.passwordFile);
        if (asked != null && file != null) {
            throw new Cli.UsageFailure("--db-password and --db-password-file both give the password; give one.");
        }
        return asked != null ? asked : PasswordFile.read(file, environment());
    }

    /**
     * A password written into the URL is refused wherever the URL comes from: on the command line
     * the process list and the shell history show it to others, and in a file it would be a
     * password kept in a file Copydesk says it never reads one from.
     */
    static void refusePasswordInUrl(DatabaseConfig config, AppDirectories dirs) {
        if (!config.urlHoldsPassword()) {
            return;
        }
        String where = switch (config.source()) {
            case COMMAND_LINE -> "--db-url";
            case ENVIRONMENT -> DatabaseConfigResolver.URL_ENV;
            default -> "db.url in " + dirs.configFile();
        };
        throw new Cli.CommandFailure("The database URL in " + where + " contains a password, which others could read there;"
                + " remove it and give the password with --db-password (asked for) or in " + DatabaseConfigResolver.PASSWORD_ENV
                + " (for a service: in an environment file only its account can read).");
    }

    /**
     * The options written before the command's name ({@code copydesk --db-url … claim}): the top-level
     * help lists them there, so there they count as much as after it (they were once read by nobody,
     * and the command went to the database of the environment or the embedded server instead).
     */
    private DatabaseOptions givenBeforeTheCommand() {
        if (command != null && command.root().userObject() instanceof CopydeskCommand root && root.database != this
                && root.database != null) {
            return root.database;
        }
        return new DatabaseOptions();
    }

    /** One value of an option given on either side of the command's name; two different ones are refused. */
    private static String either(String option, String after, String before) {
        if (after != null && before != null && !after.equals(before)) {
            throw new Cli.UsageFailure(option + " is given twice, before and after the command, with different values;"
                    + " give it once.");
        }
        return after != null ? after : before;
    }

    /** The environment settings are read from: the process's, unless a test gives one. */
    Map<String, String> environment() {
        return CopydeskCommand.environment(command);
    }
}
