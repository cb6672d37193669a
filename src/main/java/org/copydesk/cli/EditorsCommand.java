package org.copydesk.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Editor;
import org.copydesk.review.PersonRemoval;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk editors add|list|set-capacity|set-desks|set-password|remove}. */
@Command(name = "editors", mixinStandardHelpOptions = true, description = "Manages the people who review.",
        subcommands = {EditorsCommand.Add.class, EditorsCommand.ListEditors.class, EditorsCommand.SetCapacity.class,
                EditorsCommand.SetDesks.class, EditorsCommand.SetPassword.class, EditorsCommand.Remove.class})
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
                description = "ask for the new account's password (or read from COPYDESK_NEW_PASSWORD; generated when neither)")
        char[] password;
        @Option(names = "--no-account", description = "only the newsroom record; the database account exists already")
        boolean noAccount;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            String fromEnvironment = database.environment().get(SetPassword.PASSWORD_ENV);
            boolean typed = password != null && password.length > 0;
            if (password != null && !typed && fromEnvironment == null) {
                // --password with nothing typed (an empty pipe, or Enter): not a wish for a generated one
                throw new Cli.CommandFailure("--password was given but no password was typed; nothing was changed.");
            }
            char[] given = typed ? password : fromEnvironment == null ? null : fromEnvironment.toCharArray();
            boolean generated = given == null;
            if (!noAccount && !generated) {
                // before anything is made (and before asking again): a refused password must not leave a person without an account
                AccountAdministration.checkNewPassword(name, displayName, given, AccountAdministration.MIN_PASSWORD_LENGTH);
            }
            char[] secret = noAccount ? null : generated ? AccountAdministration.randomPassword() : typed ? confirmed(given) : given;
            try (ReviewSession session = database.open(2)) {
                if (session.newsroom().editor(name).isPresent()) {
                    throw new Cli.CommandFailure("'" + name + "' is one of the newsroom's people already; to give them a (new) password:"
                            + " copydesk editors set-password " + name + " --password");
                }
                Editor e = session.newsroom().addEditor(name, displayName, role, capacity, desks);
                spec.commandLine().getOut().println("Added " + describe(e) + ".");
                if (!noAccount) {
                    session.accounts().createAccount(name, secret);
                    String roleName = role.name().toLowerCase(Locale.ROOT);
                    spec.commandLine().getOut().println("Created the database account '" + name + "' with the grants of "
                            + (role == Role.SUPERVISOR ? "a " : "an ") + roleName + (generated ? "; its password is "
                            + new String(secret) + " (shown once, stored nowhere: hand it over and ask for it to be changed)." : "."));
                }
            } finally {
                if (secret != null) {
                    Arrays.fill(secret, ' ');
                }
            }
            return 0;
        }
    }

    /**
     * A password typed at the terminal is asked for twice (picocli asked the first time): a typo
     * would otherwise lock the person out. Not asked again when it comes from a pipe (no terminal).
     */
    static char[] confirmed(char[] typed) {
        java.io.Console console = System.console();
        if (console == null) {
            return typed;
        }
        char[] again = console.readPassword("Type the password again: ");
        boolean same = again != null && java.util.Arrays.equals(typed, again);
        if (again != null) {
            Arrays.fill(again, ' ');
        }
        if (!same) {
            Arrays.fill(typed, ' ');
            throw new Cli.CommandFailure("The two passwords differ; nothing was changed.");
        }
        return typed;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists everyone.")
    static final class ListEditors implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                if (json) {
                    printJson(spec.commandLine().getOut(), session.newsroom().editors());
                    return 0;
                }
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

    private static void printJson(java.io.PrintWriter out, List<Editor> editors) {
        JsonOutput.print(out, g -> {
            g.writeStartObject();
            JsonOutput.objects(g, "editors", editors, (j, e) -> {
                j.writeStringField("name", e.id());
                j.writeStringField("displayName", e.displayName());
                j.writeStringField("role", e.role().name().toLowerCase(Locale.ROOT));
                j.writeNumberField("capacity", e.capacity());
                j.writeArrayFieldStart("desks");
                for (String desk : e.desks()) {
                    j.writeString(desk);
                }
                j.writeEndArray();
                JsonOutput.time(j, "lastSeenAt", e.lastSeenAt());
            });
            g.writeEndObject();
        });
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
                    "The password is asked for, or read from COPYDESK_NEW_PASSWORD; never from the command line.",
                    "Also unblocks an account that too many wrong passwords blocked (docs/security.md, \"Passwords\")."})
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
            AccountAdministration.checkNewPassword(name, null, secret, AccountAdministration.MIN_PASSWORD_LENGTH);
            if (password != null && password.length > 0) {
                secret = confirmed(secret);
            }
            try (ReviewSession session = database.open(2)) {
                session.newsroom().requireEditor(name);
                if (session.accounts().setPasswordOrCreateAccount(name, secret)) {
                    spec.commandLine().getOut().println("Changed the password of '" + name + "'.");
                } else {
                    spec.commandLine().getOut().println("'" + name + "' had no database account; created it with that password"
                            + " and the grants of their role.");
                }
            } finally {
                Arrays.fill(secret, ' ');
            }
            return 0;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = {"Removes people: they can no longer sign in or take work, and the articles they hold go back to the",
                    "queue now. Their history, decisions and notes stay readable under their name (an admin's task)."})
    static final class Remove implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(arity = "1..*", paramLabel = "NAME")
        List<String> names;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                PersonRemoval removal = new PersonRemoval(session);
                for (String name : names) {
                    session.newsroom().requireEditor(name); // every name checked before anyone is removed
                }
                for (String name : names) {
                    PersonRemoval.Removal done = removal.remove(name);
                    spec.commandLine().getOut().println("Removed " + done.person().displayName() + " (" + name + "): no database"
                            + " account, no desks, capacity 0; " + done.articlesReturned() + " article(s) they held went back to the"
                            + " queue. Their history stays.");
                }
            }
            return 0;
        }
    }

    static String describe(Editor e) {
        return e.displayName() + " (" + e.id() + ", " + e.role().name().toLowerCase(Locale.ROOT) + ", capacity "
                + e.capacity() + ", desks " + (e.desks().isEmpty() ? "none" : String.join(", ", e.desks())) + ")";
    }
}
