package org.copydesk.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseBackup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code copydesk backup FILE}: the newsroom's data and its accounts' credentials, restorable with {@code copydesk restore}. */
@Command(name = "backup",
        description = {"Writes the newsroom's data and its accounts' sign-in credentials (password hashes, not passwords) to FILE,",
                "from one consistent snapshot, while people work. Run it as the database's owner (on the embedded server:",
                "on its computer, as the system user that runs copydesk server). The file is readable by you alone;",
                "copydesk restore FILE brings it back into an empty database, with everyone's old password."})
final class BackupCommand extends DatabaseCommand<Database> {

    @Parameters(index = "0", paramLabel = "FILE", description = "where to write the backup (e.g. copydesk-2026-11-30.backup)")
    Path file;

    BackupCommand() {
        super(DatabaseAccess.owner("back it up"));
    }

    @Override
    ExitCode run(Database db) {
        Path target = file.toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try {
            DatabaseBackup.Summary summary;
            try (OutputStream out = ownerOnly(partial)) {
                summary = DatabaseBackup.write(db, out);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            out().println("Wrote " + target + ": schema version " + summary.schemaVersion() + ", "
                    + summary.totalRows() + " rows in " + summary.rows().size() + " tables, " + summary.accounts().size()
                    + " accounts' credentials" + (summary.accountsWithoutPassword().isEmpty() ? "."
                    : "; without a database account: " + String.join(", ", summary.accountsWithoutPassword()) + "."));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                err().println("copydesk: could not remove " + partial + ": " + e.getMessage());
            }
        }
        return ExitCode.OK;
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
