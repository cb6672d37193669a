package org.copydesk.cli;

import java.util.List;
import java.util.Locale;
import org.copydesk.db.DirectorySignIn;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Editor;
import org.copydesk.review.PersonRemoval;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk editors add|import|list|set-capacity|set-desks|set-password|remove}. */
@Command(name = "editors", mixinStandardHelpOptions = true, description = "Manages the people who review.",
        subcommands = {EditorsCommand.Add.class, EditorsCommand.ListEditors.class, EditorsCommand.SetCapacity.class,
                EditorsCommand.SetDesks.class, EditorsCommand.SetPassword.class, EditorsCommand.Remove.class,
                EditorsImportCommand.class})
final class EditorsCommand {

    private EditorsCommand() {
    }

    @Command(name = "add", description = "Adds an editor, supervisor or admin.")
    static final class Add extends DatabaseCommand<ReviewSession> {
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
        @Mixin
        NewPassword newPassword = new NewPassword();
        @Option(names = "--directory", description = "the account signs in with the newsroom's directory password (MariaDB with PAM:"
                + " docs/install.md, \"Directory sign-in\"); no password is made or kept")
        boolean directory;
        @Option(names = "--no-account", description = "only the newsroom record; the database account exists already")
        boolean noAccount;
        private boolean generated;
        private char[] secret;

        Add() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            if (directory && (noAccount || newPassword.ask || newPassword.fromStdin || environment().get(NewPassword.ENV) != null)) {
                throw usage("--directory accounts have no password of Copydesk's (and need an account): leave out --no-account,"
                        + " --password, --password-stdin and " + NewPassword.ENV + ".");
            }
            char[] given = directory || noAccount ? null : newPassword.read(environment());
            generated = given == null && !directory && !noAccount;
            if (given != null) {
                // before anything is made (and before asking again): a refused password must not leave a person without an account
                AccountAdministration.checkNewPassword(name, displayName, given, AccountAdministration.MIN_PASSWORD_LENGTH);
            }
            secret = generated ? AccountAdministration.randomPassword() : given == null ? null : newPassword.confirmed(given);
        }

        @Override
        ExitCode run(ReviewSession session) {
            if (directory && !DirectorySignIn.available(session.database())) {
                // before the person is made: a refused account must not leave a person without one
                throw new Cli.CommandFailure("This database server cannot sign people in with the directory (MariaDB with"
                        + " auth_pam: docs/install.md, \"Directory sign-in\"); nothing was changed.");
            }
            if (session.newsroom().editor(name).isPresent()) {
                throw new Cli.CommandFailure("'" + name + "' is one of the newsroom's people already; to give them a (new) password:"
                        + " copydesk editors set-password " + name + " --password");
            }
            Editor e = session.newsroom().addEditor(name, displayName, role, capacity, desks);
            out().println("Added " + describe(e) + ".");
            if (directory) {
                session.accounts().createDirectoryAccount(name);
                out().println("Created the database account '" + name + "' with the grants of its role; it signs in with the"
                        + " directory's password, over TLS.");
            } else if (!noAccount) {
                session.accounts().createAccount(name, secret);
                String roleName = role.name().toLowerCase(Locale.ROOT);
                out().println("Created the database account '" + name + "' with the grants of "
                        + (role == Role.SUPERVISOR ? "a " : "an ") + roleName + (generated ? "; its password is "
                        + new String(secret) + " (shown once, stored nowhere: hand it over and ask for it to be changed)." : "."));
            }
            return ExitCode.OK;
        }

        @Override
        void forget() {
            wipe(secret);
        }
    }

    @Command(name = "list", description = "Lists everyone.")
    static final class ListEditors extends DatabaseCommand<ReviewSession> {
        @Option(names = "--json", description = "print one JSON object (the shape is in docs/import-format.md)")
        boolean json;

        ListEditors() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            if (json) {
                printJson(out(), session.newsroom().editors());
                return ExitCode.OK;
            }
            Table t = new Table("NAME", "DISPLAY NAME", "ROLE", "CAPACITY", "DESKS", "LAST SEEN (UTC)");
            for (Editor e : session.newsroom().editors()) {
                t.row(e.id(), e.displayName(), e.role().name().toLowerCase(Locale.ROOT), e.capacity(),
                        e.desks().isEmpty() ? "-" : String.join(",", e.desks()),
                        e.lastSeenAt() == null ? "never" : e.lastSeenAt().withNano(0).toString().replace('T', ' '));
            }
            t.print(out());
            return ExitCode.OK;
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

    @Command(name = "set-capacity", description = "Sets how many articles an editor holds at most.")
    static final class SetCapacity extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Parameters(index = "1", paramLabel = "CAPACITY")
        int capacity;

        SetCapacity() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            out().println("Updated " + describe(session.newsroom().setCapacity(name, capacity)) + ".");
            return ExitCode.OK;
        }
    }

    @Command(name = "set-desks", description = "Sets the desks an editor works on.")
    static final class SetDesks extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Parameters(index = "1", split = ",", paramLabel = "DESKS", description = "comma-separated desk ids")
        List<String> desks;

        SetDesks() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            out().println("Updated " + describe(session.newsroom().setDesks(name, desks)) + ".");
            return ExitCode.OK;
        }
    }

    @Command(name = "set-password",
            description = {"Gives a person's database account a new password (an admin's task).",
                    "The password is asked for (--password), read from one line of standard input (--password-stdin) or",
                    "from COPYDESK_NEW_PASSWORD; never from the command line.",
                    "Also unblocks an account that too many wrong passwords blocked (docs/security.md, \"Passwords\")."})
    static final class SetPassword extends DatabaseCommand<ReviewSession> {
        static final String PASSWORD_ENV = NewPassword.ENV;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Mixin
        NewPassword newPassword = new NewPassword();
        private char[] secret;

        SetPassword() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            secret = newPassword.read(environment());
            if (secret == null) {
                throw new Cli.CommandFailure("Give the new password with --password (asked for), --password-stdin or in "
                        + PASSWORD_ENV + ".");
            }
            AccountAdministration.checkNewPassword(name, null, secret, AccountAdministration.MIN_PASSWORD_LENGTH);
            secret = newPassword.confirmed(secret);
        }

        @Override
        ExitCode run(ReviewSession session) {
            session.newsroom().requireEditor(name);
            if (session.accounts().setPasswordOrCreateAccount(name, secret)) {
                out().println("Changed the password of '" + name + "'.");
            } else {
                out().println("'" + name + "' had no database account; created it with that password and the grants of their role.");
            }
            return ExitCode.OK;
        }

        @Override
        void forget() {
            wipe(secret);
        }
    }

    @Command(name = "remove",
            description = {"Removes people: they can no longer sign in or take work, and the articles they hold go back to the",
                    "queue now. Their history, decisions and notes stay readable under their name (an admin's task)."})
    static final class Remove extends DatabaseCommand<ReviewSession> {
        @Parameters(arity = "1..*", paramLabel = "NAME")
        List<String> names;

        Remove() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            PersonRemoval removal = new PersonRemoval(session);
            for (String name : names) {
                session.newsroom().requireEditor(name); // every name checked before anyone is removed
            }
            for (String name : names) {
                PersonRemoval.Removal done = removal.remove(name);
                out().println("Removed " + done.person().displayName() + " (" + name + "): no database account, no desks,"
                        + " capacity 0; " + done.articlesReturned() + " article(s) they held went back to the queue."
                        + " Their history stays.");
            }
            return ExitCode.OK;
        }
    }

    static String describe(Editor e) {
        return e.displayName() + " (" + e.id() + ", " + e.role().name().toLowerCase(Locale.ROOT) + ", capacity "
                + e.capacity() + ", desks " + (e.desks().isEmpty() ? "none" : String.join(", ", e.desks())) + ")";
    }
}
