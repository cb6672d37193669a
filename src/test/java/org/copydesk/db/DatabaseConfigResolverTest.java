package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.copydesk.db.DatabaseConfig.Source;
import org.copydesk.db.DatabaseConfigResolver.CommandLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Precedence: command line > environment > per-user config file > embedded server. */
class DatabaseConfigResolverTest {

    private static final String CLI_URL = "jdbc:mysql://cli-host:3306/copydesk";
    private static final String ENV_URL = "jdbc:mysql://env-host:3306/copydesk";
    private static final String FILE_URL = "jdbc:mysql://file-host:3306/copydesk";

    @TempDir
    Path dir;
    Path configFile;
    Map<String, String> env;

    @BeforeEach
    void setUp() {
        configFile = dir.resolve("copydesk.properties");
        env = new HashMap<>();
    }

    private DatabaseConfig resolve(CommandLine commandLine) {
        return new DatabaseConfigResolver(env, configFile).resolve(commandLine);
    }

    private void configFile(String... lines) throws IOException {
        Files.write(configFile, java.util.List.of(lines));
    }

    private void fullEnvironment() {
        env.put("COPYDESK_DB_URL", ENV_URL);
        env.put("COPYDESK_DB_USER", "env-user");
        env.put("COPYDESK_DB_PASSWORD", "env-secret");
        env.put("COPYDESK_DB_SSL_MODE", "REQUIRED");
    }

    @Test
    void nothingConfiguredMeansTheEmbeddedServer() {
        DatabaseConfig config = resolve(CommandLine.none());

        assertThat(config.source()).isEqualTo(Source.EMBEDDED);
        assertThat(config.isEmbedded()).isTrue();
        assertThat(config.url()).isNull();
    }

    @Test
    void theCommandLineWinsOverEnvironmentAndFile() throws IOException {
        fullEnvironment();
        configFile("db.url=" + FILE_URL, "db.user=file-user", "db.sslMode=VERIFY_IDENTITY");

        DatabaseConfig config = resolve(new CommandLine(CLI_URL, "cli-user", "cli-secret".toCharArray(), "VERIFY_CA"));

        assertThat(config.source()).isEqualTo(Source.COMMAND_LINE);
        assertThat(config.url()).isEqualTo(CLI_URL);
        assertThat(config.user()).isEqualTo("cli-user");
        assertThat(config.password()).containsExactly("cli-secret".toCharArray());
        assertThat(config.sslMode()).isEqualTo("VERIFY_CA");
    }

    @Test
    void aCommandLineUrlTakesTheRestFromTheEnvironmentNotFromTheFile() throws IOException {
        fullEnvironment();
        configFile("db.url=" + FILE_URL, "db.user=file-user");

        DatabaseConfig config = resolve(new CommandLine(CLI_URL, null, null, null));

        assertThat(config.source()).isEqualTo(Source.COMMAND_LINE);
        assertThat(config.user()).isEqualTo("env-user");
        assertThat(config.password()).containsExactly("env-secret".toCharArray());
        assertThat(config.sslMode()).isEqualTo("REQUIRED");
    }

    @Test
    void theEnvironmentWinsOverTheFile() throws IOException {
        fullEnvironment();
        configFile("db.url=" + FILE_URL, "db.user=file-user", "db.sslMode=VERIFY_IDENTITY");

        DatabaseConfig config = resolve(CommandLine.none());

        assertThat(config.source()).isEqualTo(Source.ENVIRONMENT);
        assertThat(config.url()).isEqualTo(ENV_URL);
        assertThat(config.user()).isEqualTo("env-user");
        assertThat(config.password()).containsExactly("env-secret".toCharArray());
        assertThat(config.sslMode()).isEqualTo("REQUIRED");
    }

    @Test
    void aCommandLineUserOrPasswordWithoutUrlStillOverridesTheEnvironment() {
        fullEnvironment();

        DatabaseConfig config = resolve(new CommandLine(null, "cli-user", "cli-secret".toCharArray(), null));

        assertThat(config.source()).isEqualTo(Source.ENVIRONMENT);
        assertThat(config.url()).isEqualTo(ENV_URL);
        assertThat(config.user()).isEqualTo("cli-user");
        assertThat(config.password()).containsExactly("cli-secret".toCharArray());
    }

    @Test
    void theFileIsUsedWhenNeitherCommandLineNorEnvironmentNameAServer() throws IOException {
        configFile("db.url = " + FILE_URL + "  ", "db.user=file-user", "db.sslMode=VERIFY_IDENTITY");

        DatabaseConfig config = resolve(CommandLine.none());

        assertThat(config.source()).isEqualTo(Source.CONFIG_FILE);
        assertThat(config.url()).isEqualTo(FILE_URL);
        assertThat(config.user()).isEqualTo("file-user");
        assertThat(config.password()).isEmpty();
        assertThat(config.sslMode()).isEqualTo("VERIFY_IDENTITY");
    }

    @Test
    void theFileServerTakesUserAndPasswordFromTheEnvironment() throws IOException {
        env.put("COPYDESK_DB_USER", "env-user");
        env.put("COPYDESK_DB_PASSWORD", "env-secret");
        configFile("db.url=" + FILE_URL, "db.user=file-user");

        DatabaseConfig config = resolve(CommandLine.none());

        assertThat(config.source()).isEqualTo(Source.CONFIG_FILE);
        assertThat(config.user()).isEqualTo("env-user");
        assertThat(config.password()).containsExactly("env-secret".toCharArray());
    }

    @Test
    void blankSettingsCountAsNotGiven() throws IOException {
        env.put("COPYDESK_DB_URL", "   ");
        configFile("db.url=");

        DatabaseConfig config = resolve(new CommandLine(" ", null, null, null));

        assertThat(config.source()).isEqualTo(Source.EMBEDDED);
    }

    @Test
    void aConfigFileWithAPasswordIsRefusedWithoutRepeatingIt() throws IOException {
        configFile("db.url=" + FILE_URL, "db.user=file-user", "db.password=hunter2");

        assertThatThrownBy(() -> resolve(CommandLine.none()))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageContaining("db.password")
                .hasMessageContaining("COPYDESK_DB_PASSWORD")
                .hasMessageContaining(configFile.toString())
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aMissingConfigFileIsNotAnError() {
        assertThat(Files.exists(configFile)).isFalse();

        assertThat(resolve(CommandLine.none()).isEmbedded()).isTrue();
    }

    @Test
    void theConfigNeverPrintsItsPassword() {
        DatabaseConfig config = resolve(new CommandLine(CLI_URL, "u", "hunter2".toCharArray(), null));

        assertThat(config.toString()).doesNotContain("hunter2");
    }
}
