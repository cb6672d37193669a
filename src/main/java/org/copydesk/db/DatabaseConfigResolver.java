package org.copydesk.db;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * Picks the database settings by precedence: command-line option, then environment
 * ({@code COPYDESK_DB_URL}, {@code COPYDESK_DB_USER}, {@code COPYDESK_DB_PASSWORD},
 * {@code COPYDESK_DB_SSL_MODE}), then the per-user config file, then the embedded server.
 *
 * <p>The config file holds {@code db.url}, {@code db.user} and {@code db.sslMode} only: a password
 * is never read from (or written to) a file. It comes from the environment or the sign-in window.
 */
public final class DatabaseConfigResolver {

    public static final String URL_ENV = "COPYDESK_DB_URL";
    public static final String USER_ENV = "COPYDESK_DB_USER";
    public static final String PASSWORD_ENV = "COPYDESK_DB_PASSWORD";
    public static final String SSL_MODE_ENV = "COPYDESK_DB_SSL_MODE";

    private final Map<String, String> environment;
    private final Path configFile;

    public DatabaseConfigResolver(Map<String, String> environment, Path configFile) {
        this.environment = Map.copyOf(environment);
        this.configFile = configFile;
    }

    /** Settings given on the command line, any of them null when not given. */
    public record CommandLine(String url, String user, char[] password, String sslMode) {
        public static CommandLine none() {
            return new CommandLine(null, null, null, null);
        }
    }

    public DatabaseConfig resolve(CommandLine commandLine) {
        String envPassword = environment.get(PASSWORD_ENV);
        char[] password = commandLine.password() != null ? commandLine.password()
                : envPassword != null ? envPassword.toCharArray() : null;
        if (notBlank(commandLine.url())) {
            return new DatabaseConfig(DatabaseConfig.Source.COMMAND_LINE, commandLine.url(),
                    firstNonBlank(commandLine.user(), environment.get(USER_ENV)), password,
                    firstNonBlank(commandLine.sslMode(), environment.get(SSL_MODE_ENV)));
        }
        if (notBlank(environment.get(URL_ENV))) {
            return new DatabaseConfig(DatabaseConfig.Source.ENVIRONMENT, environment.get(URL_ENV),
                    firstNonBlank(commandLine.user(), environment.get(USER_ENV)), password,
                    firstNonBlank(commandLine.sslMode(), environment.get(SSL_MODE_ENV)));
        }
        Properties file = readConfigFile();
        if (notBlank(file.getProperty("db.url"))) {
            return new DatabaseConfig(DatabaseConfig.Source.CONFIG_FILE, file.getProperty("db.url").trim(),
                    firstNonBlank(commandLine.user(), environment.get(USER_ENV), file.getProperty("db.user")), password,
                    firstNonBlank(commandLine.sslMode(), environment.get(SSL_MODE_ENV), file.getProperty("db.sslMode")));
        }
        return DatabaseConfig.embedded();
    }

    private Properties readConfigFile() {
        Properties properties = new Properties();
        if (configFile != null && Files.isRegularFile(configFile)) {
            try (Reader reader = Files.newBufferedReader(configFile)) {
                properties.load(reader);
            } catch (IOException e) {
                throw new DatabaseSetupException("Cannot read the config file " + configFile + ": " + e.getMessage(), e);
            }
            if (properties.containsKey("db.password")) {
                throw new DatabaseSetupException("The config file " + configFile
                        + " contains db.password. Copydesk never reads passwords from files: remove the line and set "
                        + PASSWORD_ENV + " or sign in with the password instead.");
            }
        }
        return properties;
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (notBlank(v)) {
                return v.trim();
            }
        }
        return null;
    }
}
