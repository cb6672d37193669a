package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service's password file: read as the account's password, refused where every account can read it. */
class PasswordFileTest {

    @TempDir
    Path dir;

    private Path file(String text, String permissions) throws Exception {
        Path file = dir.resolve("relay.db-password");
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void theFirstLineWithoutTheWhitespaceAroundItIsThePassword() throws Exception {
        Path file = file("  s3cret-relay-password \n\nignored\n", "rw-r-----");

        assertThat(PasswordFile.read(file.toString(), Map.of())).containsExactly("s3cret-relay-password".toCharArray());
        assertThat(PasswordFile.read(null, Map.of(PasswordFile.ENV, file.toString())))
                .containsExactly("s3cret-relay-password".toCharArray());
    }

    @Test
    void aFileEveryAccountMayReadIsRefusedAndTheSameFileProtectedIsRead() throws Exception {
        Path file = file("s3cret-relay-password\n", "rw-r--r--");

        assertThatThrownBy(() -> PasswordFile.read(file.toString(), Map.of()))
                .isInstanceOf(Cli.CommandFailure.class)
                .hasMessageContaining("can be read by every account").hasMessageContaining("chmod 640");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----")); // the control: protected, it is read
        assertThat(PasswordFile.read(file.toString(), Map.of())).isNotEmpty();
    }

    @Test
    void thePasswordGivenInTheEnvironmentCountsBeforeAFileNamedThere() throws Exception {
        Path file = file("from-the-file\n", "rw-------");

        assertThat(PasswordFile.read(null, Map.of(PasswordFile.ENV, file.toString(), "COPYDESK_DB_PASSWORD", "given"))).isNull();
        assertThat(PasswordFile.read(file.toString(), Map.of("COPYDESK_DB_PASSWORD", "given")))
                .containsExactly("from-the-file".toCharArray());
    }

    @Test
    void aMissingOrEmptyFileIsSaidInOneLine() throws Exception {
        assertThatThrownBy(() -> PasswordFile.read(dir.resolve("none").toString(), Map.of()))
                .isInstanceOf(Cli.CommandFailure.class).hasMessageContaining("there is no such file");
        Path empty = file("\n", "rw-------");
        assertThatThrownBy(() -> PasswordFile.read(empty.toString(), Map.of()))
                .isInstanceOf(Cli.CommandFailure.class).hasMessageContaining("is empty");
    }
}
