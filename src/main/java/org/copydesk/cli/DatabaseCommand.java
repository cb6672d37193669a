package org.copydesk.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The frame of every command that works on the database, so that each command keeps only what is
 * its own (its options, its checks, its work and what it prints):
 * <ol>
 *   <li>the database options, one mixin ({@link DatabaseOptions}: given after the command's name or
 *       before it), and {@code --help}/{@code --version};</li>
 *   <li>{@link #beforeOpening()}: what the command line alone shows wrong ({@link #usage}: exit code
 *       2, nothing done, the database not even reached) or what must be asked first (a password);</li>
 *   <li>opening the database the way the command's {@link DatabaseAccess} says (the account and
 *       what it may do), {@link #run} on it, closing it, and the {@link ExitCode} it returned;</li>
 *   <li>{@link #forget()}: wiping secrets however the command ended.</li>
 * </ol>
 * Whatever the command throws ends in {@link Cli}'s one handler: one plain line on stderr and exit
 * code 1 (a lost connection, a refusal by the database, a server away), 2 for a usage mistake.
 *
 * <p>A new command is a short class; {@code copydesk stages list}, given a stages service, would be:
 * <pre>{@code
 * @Command(name = "list", description = "Lists the stages an article passes through.")
 * static final class ListStages extends DatabaseCommand<ReviewSession> {
 *     ListStages() {
 *         super(DatabaseAccess.RUNNING_ONLY);
 *     }
 *
 *     @Override
 *     ExitCode run(ReviewSession session) {
 *         Table t = new Table("STAGE", "NAME");
 *         session.stages().list().forEach(s -> t.row(s.id(), s.name()));
 *         t.print(out());
 *         return ExitCode.OK;
 *     }
 * }
 * }</pre>
 * ({@code stages add ID NAME} the same with {@code @Parameters} fields and {@link DatabaseAccess#WORK}.)
 *
 * @param <D> what the command works through ({@link DatabaseAccess})
 */
@Command(mixinStandardHelpOptions = true)
abstract class DatabaseCommand<D extends AutoCloseable> implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Spec
    CommandSpec spec;

    private final DatabaseAccess<D> access;

    DatabaseCommand(DatabaseAccess<D> access) {
        this.access = access;
    }

    /** The command's work on the open database; the frame closes it afterwards. */
    abstract ExitCode run(D db) throws Exception;

    /**
     * Before the database is opened: refuse a command line that is wrong ({@code throw usage(…)}),
     * read what the work needs from outside (a file that must exist, a password asked for).
     */
    void beforeOpening() throws Exception {
    }

    /** After the command, however it ended: wipe what it must not keep in memory (typed passwords, with {@link #wipe}). */
    void forget() {
    }

    static void wipe(char[]... secrets) {
        for (char[] secret : secrets) {
            if (secret != null) {
                Arrays.fill(secret, ' ');
            }
        }
    }

    /** How this command opens its database; {@link #access} unless the command's options shape it. */
    D open() {
        return access.open(database, spec);
    }

    @Override
    public final Integer call() throws Exception {
        try {
            beforeOpening();
            try (D db = open()) {
                return run(db).code();
            }
        } finally {
            forget();
            out().flush();
            err().flush();
        }
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * A usage mistake found by the command itself (options that exclude each other, a value out of
     * range): {@code throw usage("…")} ends like a picocli parse error, the line and a pointer to
     * {@code --help}, exit code 2.
     */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** The environment the command reads settings from (the process's, unless a test gives one). */
    Map<String, String> environment() {
        return database.environment();
    }
}
