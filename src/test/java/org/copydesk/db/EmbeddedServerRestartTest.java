package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DESK;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded default keeps its data across app restarts: the data directory is a real, persistent
 * MariaDB data directory and the last client stops the server cleanly.
 */
class EmbeddedServerRestartTest {

    private Path home;
    private Path serverFolder;

    @BeforeEach
    void freshFolder() {
        home = EmbeddedServerTestFolders.fresh();
        serverFolder = new AppDirectories(home).embeddedServer();
    }

    @AfterEach
    void stopWhateverIsLeft() {
        EmbeddedServerTestFolders.stopLeftovers(serverFolder);
    }

    @Test
    void dataSurvivesARestartOfAppAndServer() throws IOException {
        String deskId = "restart-" + UUID.randomUUID().toString().substring(0, 8);

        // First run: start the server in a fresh folder, migrate, write a row, quit.
        EmbeddedServer first = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(serverFolder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        assertThat(first.startedHere()).as("a fresh folder has no server to attach to").isTrue();
        long firstPid = first.serverPid();
        try (Database db = Database.open(first.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, first.rootPassword(),
                null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE_OR_VALIDATE, first)) {
            db.dsl().insertInto(DESK, DESK.ID, DESK.NAME).values(deskId, "Survives restarts").execute();
        }
        long logAfterFirstRun = Files.size(serverFolder.resolve("server.log"));

        // Closing the Database detached its (only) client, which stopped the server...
        assertThat(EmbeddedServerTestFolders.alive(firstPid)).as("server process after the app quit").isFalse();
        assertThat(serverFolder.resolve("run").resolve("server.properties")).doesNotExist();
        assertThat(EmbeddedServer.findRunning(serverFolder)).isEmpty();
        // ...with an orderly SHUTDOWN (not the kill fallback), which is what keeps InnoDB's files consistent.
        assertThat(Files.readString(serverFolder.resolve("server.log"))).contains("Shutdown complete");

        // Second run, the way the app starts with nothing configured: a new server on the same data.
        try (Database db = Database.open(DatabaseConfig.embedded(), new AppDirectories(home), DataSources.PoolSize.desktop(),
                Database.SchemaAction.MIGRATE_OR_VALIDATE)) {
            EmbeddedServer second = db.embeddedServer().orElseThrow();
            assertThat(second.startedHere()).isTrue();
            assertThat(second.serverPid()).isNotEqualTo(firstPid);
            assertThat(Files.size(serverFolder.resolve("server.log"))).as("a new server wrote to the log")
                    .isGreaterThan(logAfterFirstRun);

            assertThat(db.dsl().select(DESK.NAME).from(DESK).where(DESK.ID.eq(deskId)).fetchOne(DESK.NAME))
                    .isEqualTo("Survives restarts");
            assertThat(new Migrations(db.dataSource()).currentVersion()).as("schema kept, not re-created").isEqualTo(org.copydesk.testing.SchemaVersions.LATEST);
        }
        assertThat(EmbeddedServer.findRunning(serverFolder)).isEmpty();
    }
}
