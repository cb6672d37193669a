package org.copydesk.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.lease.DatabaseBusyException;
import org.copydesk.lease.SqlFailure;
import org.copydesk.review.ConnectionTrouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Runs a command line. Errors become one clear line on stderr and a non-zero exit code
 * ({@link ExitCode}: 1 for a problem the user or admin can fix, 2 for a usage mistake); the stack
 * trace goes to the log only.
 */
public final class Cli {

    private static final Logger log = LoggerFactory.getLogger(Cli.class);

    private Cli() {
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, System.getenv());
    }

    /**
     * Runs a command with the given environment in place of the process's (tests: a password in
     * {@code COPYDESK_DB_PASSWORD} without putting it on a command line or changing the JVM's).
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> environment) {
        return run(args, out, err, config -> {
            throw new CommandFailure("Give a command; copydesk --help lists them.");
        }, environment);
    }

    /**
     * @param openApp what "copydesk" without a command does: the launcher opens the desktop app
     *                with the database the options chose
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Consumer<DatabaseConfig> openApp) {
        return run(args, out, err, openApp, System.getenv());
    }

    private static int run(String[] args, PrintWriter out, PrintWriter err, Consumer<DatabaseConfig> openApp,
                           Map<String, String> environment) {
        Documentation.publish(); // help texts name where the documentation is installed
        CommandLine cl = new CommandLine(new CopydeskCommand(openApp, environment));
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        listExitCodes(cl);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("copydesk: " + message(e));
            commandLine.getErr().flush();
            log.debug("command failed", e);
            return (e instanceof UsageFailure ? ExitCode.USAGE : ExitCode.FAILED).code();
        });
        cl.setParameterExceptionHandler((ex, cmdArgs) -> {
            CommandLine failed = ex.getCommandLine();
            failed.getErr().println("copydesk: " + plain(ex.getMessage()));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, failed.getErr())) {
                failed.getErr().println("Try '" + failed.getCommandSpec().qualifiedName() + " --help'.");
            }
            failed.getErr().flush();
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Each command's --help lists the exit codes it can end with. */
    private static void listExitCodes(CommandLine command) {
        String name = command.getCommandSpec().qualifiedName(" ");
        String under = name.startsWith("copydesk") ? name.substring("copydesk".length()).strip() : name;
        command.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(ExitCode.of(under.isEmpty() ? "copydesk" : under));
        command.getSubcommands().values().forEach(Cli::listExitCodes);
    }

    /**
     * The process's standard input, read without a buffer ahead of what is asked for: a command that
     * reads one line of it ({@code --password-stdin}) leaves the rest to whoever reads next (the
     * {@code while read} loop that ran it). Null in tests, which give commands {@code System.in}.
     */
    private static volatile java.io.InputStream processInput;

    /** What a command reads as standard input. */
    static java.io.InputStream standardInput() {
        java.io.InputStream in = processInput;
        return in != null ? in : System.in;
    }

    /** Entry point of the launcher: commands run here; no command opens the app. */
    public static int runOnConsole(String[] args, Consumer<DatabaseConfig> openApp) {
        processInput = new java.io.FileInputStream(java.io.FileDescriptor.in);
        return run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true), openApp);
    }

    /** "java.lang.IllegalArgumentException: ", "(org.x.ImportFailedException: …" and the like: never shown to people. */
    private static final Pattern CLASS_NAME = Pattern.compile("(?:\\b[a-z][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)\\b:?\\s*"
            + "|\\b[A-Z][\\w$]*(?:Exception|Error):\\s*");

    /** The error in one line of plain words: the message people can act on, never a Java class name. */
    static String message(Throwable e) {
        if (e instanceof java.nio.file.NoSuchFileException f) {
            return "No such file: " + f.getFile();
        }
        if (ConnectionTrouble.isConnectionLost(e) || e instanceof DatabaseBusyException) {
            // the driver's words ("Communications link failure", "Connection was killed"), the SQL and the retry
            // loop's account of its attempts (for the log) mean nothing to people
            return ConnectionTrouble.describe(e);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            String text = plain(t.getMessage());
            if (!text.isEmpty()) {
                return SqlFailure.of(e) == SqlFailure.PRIVILEGE_MISSING && text.startsWith(plain(SqlFailure.serverWords(e)))
                        // "execute command denied to user 'pat'@'%' for routine 'cd.deadline_forecast'", the server's
                        // words alone, read as a fault: it is the database keeping a supervisor's or admin's command
                        ? "Your account may not do this: it is for a supervisor or an admin, and the database refused it ("
                                + text + "). If your role should allow it, ask an admin."
                        : text;
            }
        }
        return "The command failed without saying why; run it again with -Dcopydesk.log.level=DEBUG for details.";
    }

    /** jOOQ puts the statement before the server's words: "SQL [select …]; Deadlock found …". */
    private static final Pattern SQL_TEXT = Pattern.compile("(?s)^.*?SQL \\[.*?\\];\\s*");

    static String plain(String message) {
        if (message == null) {
            return "";
        }
        String text = CLASS_NAME.matcher(SQL_TEXT.matcher(message).replaceFirst("")).replaceAll("").replace("()", "");
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /** A command could not do what was asked; the message says why. */
    static final class CommandFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CommandFailure(String message) {
            super(message);
        }
    }

    /** The command line was wrong in a way only seen once the command ran; nothing was done (exit 2). */
    static final class UsageFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageFailure(String message) {
            super(message);
        }
    }
}
