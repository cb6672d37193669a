package org.copydesk.cli;

import java.util.Locale;
import org.copydesk.db.RandomPasswords;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code copydesk integrations add|drop}: database accounts for other systems (feed readers, the relay). */
@Command(name = "integrations", mixinStandardHelpOptions = true,
        description = "Database accounts for other systems: a feed_reader reads only the outcome feed's view,"
                + " a relay only delivers the feed. For admins.",
        subcommands = {IntegrationsCommand.Add.class, IntegrationsCommand.Drop.class})
final class IntegrationsCommand {

    private IntegrationsCommand() {
    }

    @Command(name = "add", description = "Creates (or renews) another system's account.")
    static final class Add extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "NAME", description = "account name (letters, digits, . _ -; not a person's)")
        String name;
        @Option(names = "--kind", required = true, description = "feed_reader or relay")
        String kind;
        @Mixin
        NewPassword newPassword = new NewPassword();
        /** The password given (asked for, from standard input or the environment), or null: one is generated. */
        private char[] password;

        /** --kind as the database names it (feed_reader, relay). */
        private String accountKind;
        private char[] secret;

        Add() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            accountKind = kind.toLowerCase(Locale.ROOT).replace('-', '_');
            if (!accountKind.equals("feed_reader") && !accountKind.equals("relay")) {
                throw usage("--kind is feed_reader or relay, not '" + kind + "'.");
            }
            password = newPassword.read(environment());
            if (password != null) {
                // before connecting: the database refuses the same (create_integration_account), in fewer words
                AccountAdministration.checkNewPassword(name, null, password, AccountAdministration.MIN_INTEGRATION_PASSWORD_LENGTH);
                password = newPassword.confirmed(password);
            }
        }

        @Override
        ExitCode run(ReviewSession session) {
            boolean generated = password == null;
            secret = generated ? RandomPasswords.of(24) : password;
            session.accounts().createIntegrationAccount(name, accountKind, secret);
            out().println("Created the " + accountKind + " account '" + name + "'"
                    + (generated ? "; its password is " + new String(secret) + " (shown once, stored nowhere)." : "."));
            return ExitCode.OK;
        }

        @Override
        void forget() {
            wipe(secret, password);
        }
    }

    @Command(name = "drop", description = "Drops another system's account.")
    static final class Drop extends DatabaseCommand<ReviewSession> {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        Drop() {
            super(DatabaseAccess.WORK);
        }

        @Override
        ExitCode run(ReviewSession session) {
            session.accounts().dropIntegrationAccount(name);
            out().println("Dropped the account '" + name + "'.");
            return ExitCode.OK;
        }
    }
}
