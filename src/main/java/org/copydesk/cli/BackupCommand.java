package org.copydesk.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import org.copydesk.db.AppDirectories;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseBackup;
import org.copydesk.review.AccountAdministration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code copydesk backup FILE}: the newsroom's data and its accounts' credentials, restorable with {@code copydesk restore}. */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Writes the newsroom's data and its accounts' sign-in credentials (password hashes, not passwords) to FILE,",
                "from one consistent snapshot, while people work. Run it as the database's owner (on the embedded server:",
                "on its computer, as the system user that runs copydesk server). The file is readable by you alone;",
                "copydesk restore FILE brings it back into an empty database, with everyone's old password."})
final class BackupCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Parameters(index = "0", paramLabel = "FILE", description = "where to write the backup (e.g. copydesk-2026-11-30.backup)")
    Path file;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path target = file.toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try (Database db = Database.open(database.resolve(), AppDirectories.forCurrentUser(), DataSources.PoolSize.of(2),
                Database.SchemaAction.NONE)) {
            AccountAdministration.of(db).whyNotTheOwner().ifPresent(reason -> {
                throw new Cli.CommandFailure(reason.replace("migrate the schema", "back it up")
                        .replace("copydesk db migrate", "copydesk backup"));
            });
            DatabaseBackup.Summary summary;
            try (OutputStream out = ownerOnly(partial)) {
                summary = DatabaseBackup.write(db, out);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            spec.commandLine().getOut().println("Wrote " + target + ": schema version " + summary.schemaVersion() + ", "
                    + summary.totalRows() + " rows in " + summary.rows().size() + " tables, " + summary.accounts().size()
                    + " accounts' credentials" + (summary.accountsWithoutPassword().isEmpty() ? "."
                    : "; without a database account: " + String.join(", ", summary.accountsWithoutPassword()) + "."));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                spec.commandLine().getErr().println("copydesk: could not remove " + partial + ": " + e.getMessage());
            }
        }
        return 0;
    }

    /** A new file only its owner may read: it holds the accounts' password hashes. */
    private static OutputStream ownerOnly(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        return Files.newOutputStream(file);
    }
}
