package org.copydesk.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.copydesk.db.RandomPasswords;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk integrations add|drop}: database accounts for other systems (feed readers, the relay). */
@Command(name = "integrations", mixinStandardHelpOptions = true,
        description = "Database accounts for other systems: a feed_reader reads only the outcome feed's view,"
                + " a relay only delivers the feed. For admins.",
        subcommands = {IntegrationsCommand.Add.class, IntegrationsCommand.Drop.class})
final class IntegrationsCommand {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Creates (or renews) another system's account.")
    static final class Add implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME", description = "account name (letters, digits, . _ -; not a person's)")
        String name;
        @Option(names = "--kind", required = true, description = "feed_reader or relay")
        String kind;
        @Option(names = "--password", interactive = true, arity = "0",
                description = "ask for the account's password (generated when left out)")
        char[] password;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            String k = kind.toLowerCase(Locale.ROOT).replace('-', '_');
            if (!k.equals("feed_reader") && !k.equals("relay")) {
                throw Cli.usage(spec, "--kind is feed_reader or relay, not '" + kind + "'.");
            }
            boolean generated = password == null || password.length == 0;
            if (!generated) {
                // before connecting: the database refuses the same (create_integration_account), in fewer words
                AccountAdministration.checkNewPassword(name, null, password, AccountAdministration.MIN_INTEGRATION_PASSWORD_LENGTH);
            }
            try (ReviewSession session = database.open(2)) {
                char[] secret = generated ? RandomPasswords.of(24) : password;
                session.accounts().createIntegrationAccount(name, k, secret);
                spec.commandLine().getOut().println("Created the " + k + " account '" + name + "'"
                        + (generated ? "; its password is " + new String(secret) + " (shown once, stored nowhere)." : "."));
                Arrays.fill(secret, ' ');
            }
            return 0;
        }
    }

    @Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops another system's account.")
    static final class Drop implements Callable<Integer> {
        @Mixin
        DatabaseOptions database;
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (ReviewSession session = database.open(2)) {
                AccountAdministration accounts = session.accounts();
                accounts.dropIntegrationAccount(name);
                spec.commandLine().getOut().println("Dropped the account '" + name + "'.");
            }
            return 0;
        }
    }
}
