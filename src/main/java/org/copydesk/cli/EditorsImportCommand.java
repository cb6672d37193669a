package org.copydesk.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.copydesk.db.DirectorySignIn;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Desk;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code copydesk editors import FILE}: a newsroom's people from one CSV file, in one run (docs/install.md,
 * "People from a file"). Every line is checked before anyone is made; people the newsroom has already
 * are left as they are, so the same file may be run again after a run that stopped partway. Each
 * password made is shown once, or written to a new file only its owner may read.
 */
@Command(name = "import", description = "Adds the people of a CSV file (name,display_name,role,capacity,desks,sign_in);"
        + " every line is checked first.")
final class EditorsImportCommand extends DatabaseCommand<ReviewSession> {

    @Parameters(index = "0", paramLabel = "FILE", description = "the people, one a line, the columns named on the first")
    Path file;
    @Option(names = "--passwords-to", paramLabel = "FILE",
            description = "write the passwords made to this new file, readable by you alone, instead of showing them")
    Path passwordsTo;
    @Option(names = "--dry-run", description = "check the file and say what would be done; change nothing")
    boolean dryRun;

    EditorsImportCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    void beforeOpening() {
        if (!Files.isRegularFile(file)) {
            throw new Cli.CommandFailure("No such file: " + file);
        }
        if (passwordsTo != null && Files.exists(passwordsTo)) {
            throw usage(passwordsTo + " exists already: the passwords go to a new file only (nothing was changed).");
        }
    }

    @Override
    ExitCode run(ReviewSession session) throws IOException {
        Set<String> desks = session.newsroom().desks().stream().map(Desk::id).collect(Collectors.toSet());
        PeopleFile.Reading reading = PeopleFile.read(file, desks);
        if (!reading.wrong().isEmpty()) {
            reading.wrong().forEach(err()::println);
            throw new Cli.CommandFailure("Nothing was changed: " + reading.wrong().size() + " line(s) of " + file.getFileName()
                    + " to put right first.");
        }
        Set<String> present = session.newsroom().editors().stream().map(e -> e.id()).collect(Collectors.toSet());
        List<PeopleFile.Person> toAdd = reading.people().stream().filter(p -> !present.contains(p.name())).toList();
        if (!dryRun && toAdd.stream().anyMatch(p -> p.signIn() == PeopleFile.SignIn.DIRECTORY)
                && !DirectorySignIn.available(session.database())) {
            throw new Cli.CommandFailure("This database server cannot sign people in with the directory (MariaDB with auth_pam:"
                    + " docs/install.md, \"Directory sign-in\"); nothing was changed.");
        }
        reading.people().stream().filter(p -> present.contains(p.name())).forEach(p -> out().println("skipped " + p.name()
                + " (line " + p.line() + "): one of the newsroom's people already"));
        if (dryRun) {
            toAdd.forEach(p -> out().println("would add " + describe(p)));
            return ExitCode.OK;
        }
        List<String[]> passwords = new ArrayList<>();
        int failed = 0;
        for (PeopleFile.Person p : toAdd) {
            char[] secret = p.signIn() == PeopleFile.SignIn.PASSWORD ? AccountAdministration.randomPassword() : null;
            try {
                session.newsroom().addEditor(p.name(), p.displayName(), p.role(), p.capacity(), p.desks());
                switch (p.signIn()) {
                    case PASSWORD -> session.accounts().createAccount(p.name(), secret);
                    case DIRECTORY -> session.accounts().createDirectoryAccount(p.name());
                    case NONE -> { }
                    default -> throw new IllegalStateException(p.signIn().name());
                }
                out().println("added " + describe(p));
                if (secret != null) {
                    passwords.add(new String[] {p.name(), p.displayName(), new String(secret)});
                }
            } catch (RuntimeException e) {
                failed++;
                err().println("FAILED " + p.name() + " (line " + p.line() + "): " + Cli.message(e));
            } finally {
                wipe(secret);
            }
        }
        handOver(passwords);
        return failed == 0 ? ExitCode.OK : ExitCode.FAILED;
    }

    /** Each password made, once: on the terminal, or in a new file of the caller's alone (for a mail merge). */
    private void handOver(List<String[]> passwords) throws IOException {
        if (passwords.isEmpty()) {
            return;
        }
        if (passwordsTo == null) {
            out().println();
            out().println("Passwords (shown once, stored nowhere: hand each over and ask for it to be changed):");
            Table t = new Table("NAME", "DISPLAY NAME", "PASSWORD");
            passwords.forEach(p -> t.row(p[0], p[1], p[2]));
            t.print(out());
            return;
        }
        try (Writer w = Files.newBufferedWriter(Files.createFile(passwordsTo,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))), StandardCharsets.UTF_8)) {
            w.write("name,display_name,password\n");
            for (String[] p : passwords) {
                w.write(csv(p[0]) + "," + csv(p[1]) + "," + csv(p[2]) + "\n");
            }
        } catch (FileAlreadyExistsException e) {
            throw new Cli.CommandFailure(passwordsTo + " appeared while the people were made; their passwords are not kept"
                    + " anywhere: give each a new one with copydesk editors set-password NAME.");
        }
        out().println("The " + passwords.size() + " password(s) made are in " + passwordsTo + " (readable by you alone):"
                + " hand each over, then delete the file.");
    }

    private static String csv(String value) {
        return "\"" + value.replace("\"", "\"\"") + "\"";
    }

    private static String describe(PeopleFile.Person p) {
        return p.name() + " (" + p.displayName() + ", " + p.role().name().toLowerCase(Locale.ROOT) + ", capacity " + p.capacity()
                + ", desks " + (p.desks().isEmpty() ? "none" : String.join(", ", p.desks())) + ", " + switch (p.signIn()) {
                    case PASSWORD -> "a password made now";
                    case DIRECTORY -> "the directory's password";
                    case NONE -> "no account made";
                } + ")";
    }
}
