package org.copydesk.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import org.copydesk.db.DatabaseConfigResolver;

/**
 * A service's database password in a file ({@code --db-password-file}, COPYDESK_DB_PASSWORD_FILE):
 * the way a systemd unit gets its own account's password without putting it on a command line (the
 * process list shows it) or in the shared settings file. The file's first line is the password,
 * whitespace around it ignored (an editor's final newline). A file that everyone may read is refused:
 * it would be the password given to every account of the computer.
 */
final class PasswordFile {

    static final String ENV = "COPYDESK_DB_PASSWORD_FILE";

    private PasswordFile() {
    }

    /**
     * The password in {@code option}'s file, else in the file COPYDESK_DB_PASSWORD_FILE names when
     * COPYDESK_DB_PASSWORD is not set (the password given itself counts before a file named in the
     * environment); null when no file is named.
     */
    static char[] read(String option, Map<String, String> environment) {
        String named = option;
        if (named == null && environment.get(DatabaseConfigResolver.PASSWORD_ENV) == null) {
            named = environment.get(ENV);
        }
        if (named == null || named.isBlank()) {
            return null;
        }
        Path file = Path.of(named.trim());
        String where = option != null ? "--db-password-file " + file : ENV + " (" + file + ")";
        refuseReadableByOthers(file, where);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Cli.CommandFailure("Cannot read the password file of " + where + ": " + reason(e) + ".");
        }
        String line = text.lines().findFirst().orElse("").strip();
        if (line.isEmpty()) {
            throw new Cli.CommandFailure("The password file of " + where + " is empty; write the account's password on its first line.");
        }
        return line.toCharArray();
    }

    private static void refuseReadableByOthers(Path file, String where) {
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix == null || !Files.exists(file)) {
            return; // not a POSIX file system (Windows: its ACLs), or missing: reading says so
        }
        Set<PosixFilePermission> permissions;
        try {
            permissions = posix.readAttributes().permissions();
        } catch (IOException e) {
            return;
        }
        if (permissions.contains(PosixFilePermission.OTHERS_READ)) {
            throw new Cli.CommandFailure("The password file of " + where + " can be read by every account of this computer;"
                    + " make it readable by its owner and group only (chmod 640 " + file + ") and change the password.");
        }
    }

    private static String reason(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException ? "there is no such file"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : String.valueOf(e.getMessage());
    }
}
