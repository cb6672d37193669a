package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copydesk backup} on a team's embedded server, then {@code copydesk restore} into a new,
 * empty server (the data folder gone): every row is back, and every person signs in with their old
 * password and has the rights of their role.
 */
class BackupRestoreTest {

    private static final List<String> TABLES = List.of("desk", "editor", "editor_desk", "article", "article_revision", "lease_event",
            "decision", "outcome_event", "integration_account", "role_grant");

    private CommandRunner copydesk;

    @BeforeEach
    void freshHome() {
        copydesk = CommandRunner.freshHome();
    }

    @AfterEach
    void stop() {
        copydesk.close();
    }

    @Test
    void aBackupRestoresIntoAnEmptyServerAndEveryoneSignsInWithTheirOldPassword() throws Exception {
        CompletableFuture<CommandRunner.Run> serving = copydesk.serve();
        for (String desk : List.of("news", "sport", "culture")) {
            ok(copydesk.run("desks", "add", desk, desk.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + desk.substring(1)));
        }
        Map<String, String> people = new LinkedHashMap<>();
        people.put("rita", "rita-password-1");
        people.put("sam", "sam-password-22");
        ok(copydesk.run("editors", "add", "rita", "--desks", "news"));
        ok(copydesk.run("editors", "add", "sam", "--role", "supervisor", "--desks", "news"));
        for (Map.Entry<String, String> person : people.entrySet()) {
            ok(copydesk.run(Map.of(EditorsCommand.SetPassword.PASSWORD_ENV, person.getValue()), "editors", "set-password",
                    person.getKey()));
        }
        ok(copydesk.run("integrations", "add", "cms-feed", "--kind", "feed_reader"));
        ok(copydesk.run("import", Path.of("docs", "examples", "articles.json").toAbsolutePath().toString()));
        String held = ok(copydesk.run("claim", "--as", "rita")).out();
        String article = held.lines().filter(l -> l.matches("\\s*\\d+\\s+news.*")).findFirst().orElseThrow().strip().split("\\s+")[0];
        ok(copydesk.run("decide", article, "approve", "--as", "rita"));
        Map<String, Integer> before = counts();
        assertThat(before.get("outcome_event")).isPositive();

        Path backup = copydesk.dirs().home().resolve("team.backup");
        CommandRunner.Run written = ok(copydesk.run("backup", backup.toString()));
        assertThat(written.out()).contains("Wrote " + backup, "3 accounts' credentials");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backup))).isEqualTo("rw-------");

        // a new server: the old one stopped and its data folder gone
        ok(copydesk.run("server", "--stop"));
        assertThat(serving.get(60, TimeUnit.SECONDS).code()).isZero();
        deleteRecursively(copydesk.serverFolder().resolve("data"));
        serving = copydesk.serve();
        assertThat(counts().get("editor")).isZero();

        CommandRunner.Run restored = ok(copydesk.run("restore", backup.toString()));
        assertThat(restored.out()).contains("3 accounts with their old passwords");
        assertThat(counts()).isEqualTo(before);
        for (Map.Entry<String, String> person : people.entrySet()) {
            try (Database own = signIn(person.getKey(), person.getValue())) {
                assertThat(own.dsl().fetchOne("select count(*) from article").get(0, Integer.class)).isEqualTo(before.get("article"));
            }
        }
        String status = ok(copydesk.run("status")).out();
        assertThat(status).contains("News");
        assertThat(copydesk.run("restore", backup.toString()).err()).as("into a database that is not empty")
                .contains("is not empty", "restore only into an empty one");
        ok(copydesk.run("server", "--stop"));
        serving.get(60, TimeUnit.SECONDS);
    }

    private Map<String, Integer> counts() {
        try (Database admin = root()) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String table : TABLES) {
                counts.put(table, admin.dsl().fetchOne("select count(*) from " + table).get(0, Integer.class));
            }
            return counts;
        }
    }

    private Database root() {
        EmbeddedServer server = copydesk.running().orElseThrow();
        return Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null);
    }

    private Database signIn(String name, String password) {
        String url = copydesk.running().orElseThrow().userJdbcUrl(Database.EMBEDDED_SCHEMA);
        assertThatThrownBy(() -> Database.open(url, name, "wrong-password".toCharArray(), null, DataSources.PoolSize.of(1),
                Database.SchemaAction.NONE, null).close()).isNotNull();
        return Database.open(url, name, password.toCharArray(), null, DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE_OR_VALIDATE,
                null);
    }

    private static CommandRunner.Run ok(CommandRunner.Run run) {
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        return run;
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
