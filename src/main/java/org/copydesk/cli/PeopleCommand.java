package org.copydesk.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.copydesk.review.DirectoryPeople;
import org.copydesk.review.DirectorySettings;
import org.copydesk.review.PeopleSync;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk people sync}: the newsroom's people follow the directory's groups. */
@Command(name = "people", description = "The newsroom's people from its directory.", mixinStandardHelpOptions = true,
        subcommands = {PeopleCommand.Sync.class})
final class PeopleCommand {

    private PeopleCommand() {
    }

    @Command(name = "sync",
            description = {"Makes the newsroom's people follow the directory's groups (an admin's task): members of the",
                    "configured groups get a person and a directory account with their group's role and desks; people the",
                    "sync made who left every group, or whom the directory disabled, are suspended (no account, no desks,",
                    "what they held back to the queue; their history stays) and return if they come back. People added by",
                    "hand are never touched. Safe to run again and again (a systemd timer: docs/install.md)."})
    static final class Sync extends DatabaseCommand<ReviewSession> {
        @Option(names = "--settings", paramLabel = "FILE", defaultValue = "/etc/copydesk/directory.properties",
                description = "the directory and the groups (default: ${DEFAULT-VALUE}; the format is in docs/install.md)")
        Path settingsFile;
        @Option(names = "--dry-run", description = "only say what would change")
        boolean dryRun;
        private DirectorySettings settings;
        private Map<String, DirectoryPeople.Member> members;

        Sync() {
            super(DatabaseAccess.WORK);
        }

        @Override
        void beforeOpening() {
            // the settings and the directory before the database: a wrong file or an unreachable directory changes nothing
            settings = DirectorySettings.read(settingsFile);
            members = new DirectoryPeople(settings).members();
        }

        @Override
        ExitCode run(ReviewSession session) {
            PeopleSync sync = new PeopleSync(session);
            List<PeopleSync.Change> changes = sync.plan(settings, members);
            if (changes.isEmpty()) {
                out().println("Nothing to change: " + members.size() + " people in the directory's groups, all as they should be.");
                return ExitCode.OK;
            }
            if (!dryRun && !org.copydesk.db.DirectorySignIn.available(session.database())) {
                // before anyone is made: people the sync adds sign in with the directory, which this server cannot
                throw new Cli.CommandFailure("This database server cannot sign people in with the directory (MariaDB with"
                        + " auth_pam: docs/install.md, \"Directory sign-in\"); nothing was changed.");
            }
            if (dryRun) {
                changes.forEach(c -> out().println(c.kind() == PeopleSync.Kind.SKIP ? c.line() : "would " + c.line()));
                return ExitCode.OK;
            }
            List<String> done = sync.apply(settings, members, changes);
            done.forEach(out()::println);
            return done.stream().anyMatch(line -> line.startsWith("FAILED")) ? ExitCode.FAILED : ExitCode.OK;
        }

        @Override
        void forget() {
            if (settings != null) {
                wipe(settings.bindPassword());
            }
        }
    }
}
