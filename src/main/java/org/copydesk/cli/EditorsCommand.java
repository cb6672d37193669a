package org.copydesk.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk editors add|list|set-capacity|set-desks|set-password}. */
@Command(name = "editors", mixinStandardHelpOptions = true, description = "Manages the people who review.",
        subcommands = {EditorsCommand.Add.class, EditorsCommand.ListEditors.class, EditorsCommand.SetCapacity.class,
                EditorsCommand.SetDesks.class, EditorsCommand.SetPassword.class})
final class EditorsCommand {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Adds an editor, supervisor or admin.")
    static final class Add implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME", description = "sign-in name (letters, digits, . _ -)")
        String name;
        @Option(names = "--display-name", description = "the name people know (default: NAME)")
        String displayName;
        @Option(names = "--role", defaultValue = "editor", description = "editor, supervisor or admin (default: ${DEFAULT-VALUE})")
        Role role;
        @Option(names = "--capacity", defaultValue = "5", description = "most articles held at once (default: ${DEFAULT-VALUE})")
        int capacity;
        @Option(names = "--desks", split = ",", paramLabel = "DESK", description = "desks worked on, comma-separated")
        List<String> desks = List.of();
        // arity 0: asked for, never taken from the command line (where other users and the shell history see it)
        @Option(names = "--password", interactive = true, arity = "0",
                description = "ask for the new account's password (generated when left out)")
        char[] password;
        @Option(names = "--no-account", description = "only the newsroom record; the database account exists already")
        boolean noAccount;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                Editor e = session.newsroom().addEditor(name, displayName, role, capacity, desks);
                spec.commandLine().getOut().println("Added " + describe(e) + ".");
                if (!noAccount) {
                    boolean generated = password == null || password.length == 0;
                    char[] secret = generated ? AccountAdministration.randomPassword() : password;
                    session.accounts().createAccount(name, secret);
                    String roleName = role.name().toLowerCase(Locale.ROOT);
                    spec.commandLine().getOut().println("Created the database account '" + name + "' with the grants of "
                            + (role == Role.SUPERVISOR ? "a " : "an ") + roleName + (generated ? "; its password is "
                            + new String(secret) + " (shown once, stored nowhere: hand it over and ask for it to be changed)." : "."));
                    Arrays.fill(secret, ' ');
                }
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists everyone.")
    static final class ListEditors implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                Table t = new Table("NAME", "DISPLAY NAME", "ROLE", "CAPACITY", "DESKS", "LAST SEEN (UTC)");
                for (Editor e : session.newsroom().editors()) {
                    t.row(e.id(), e.displayName(), e.role().name().toLowerCase(Locale.ROOT), e.capacity(),
                            e.desks().isEmpty() ? "-" : String.join(",", e.desks()),
                            e.lastSeenAt() == null ? "never" : e.lastSeenAt().withNano(0).toString().replace('T', ' '));
                }
                t.print(spec.commandLine().getOut());
            }
            return 0;
        }
    }

    @Command(name = "set-capacity", mixinStandardHelpOptions = true, description = "Sets how many articles an editor holds at most.")
    static final class SetCapacity implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Parameters(index = "1", paramLabel = "CAPACITY")
        int capacity;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                spec.commandLine().getOut().println("Updated " + describe(session.newsroom().setCapacity(name, capacity)) + ".");
            }
            return 0;
        }
    }

    @Command(name = "set-desks", mixinStandardHelpOptions = true, description = "Sets the desks an editor works on.")
    static final class SetDesks implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Parameters(index = "1", split = ",", paramLabel = "DESKS", description = "comma-separated desk ids")
        List<String> desks;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                spec.commandLine().getOut().println("Updated " + describe(session.newsroom().setDesks(name, desks)) + ".");
            }
            return 0;
        }
    }

    @Command(name = "set-password", mixinStandardHelpOptions = true,
            description = {"Gives a person's database account a new password (an admin's task).",
                    "The password is asked for, or read from COPYDESK_NEW_PASSWORD; never from the command line."})
    static final class SetPassword implements Callable<Integer> {
        static final String PASSWORD_ENV = "COPYDESK_NEW_PASSWORD";
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Option(names = "--password", interactive = true, arity = "0", description = "ask for the password")
        char[] password;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            String fromEnvironment = database.environment().get(PASSWORD_ENV);
            char[] secret = password != null && password.length > 0 ? password
                    : fromEnvironment != null ? fromEnvironment.toCharArray() : null;
            if (secret == null) {
                throw new IllegalArgumentException("Give the new password with --password (asked for) or in " + PASSWORD_ENV + ".");
            }
            try (ReviewSession session = database.open(2)) {
                session.accounts().setPassword(name, secret);
                spec.commandLine().getOut().println("Changed the password of '" + name + "'.");
            } finally {
                Arrays.fill(secret, ' ');
            }
            return 0;
        }
    }

    static String describe(Editor e) {
        return e.displayName() + " (" + e.id() + ", " + e.role().name().toLowerCase(Locale.ROOT) + ", capacity "
                + e.capacity() + ", desks " + (e.desks().isEmpty() ? "none" : String.join(", ", e.desks())) + ")";
    }
}
