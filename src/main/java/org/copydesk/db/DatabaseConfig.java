package org.copydesk.db;

import java.util.Objects;
import java.util.Optional;

/**
 * How to reach the database. {@code url == null} with source {@link Source#EMBEDDED} means "start
 * or attach to the embedded server".
 *
 * @param sslMode Connector/J {@code sslMode} (DISABLED, PREFERRED, REQUIRED, VERIFY_CA,
 *                VERIFY_IDENTITY); {@code null} keeps the driver's default (PREFERRED)
 */
public record DatabaseConfig(Source source, String url, String user, char[] password, String sslMode) {

    /** Where the setting came from, highest precedence first. */
    public enum Source { COMMAND_LINE, ENVIRONMENT, CONFIG_FILE, EMBEDDED }

    public DatabaseConfig {
        Objects.requireNonNull(source, "source");
        password = password == null ? new char[0] : password.clone();
    }

    public static DatabaseConfig embedded() {
        return new DatabaseConfig(Source.EMBEDDED, null, null, null, null);
    }

    public boolean isEmbedded() {
        return source == Source.EMBEDDED;
    }

    public Optional<String> userName() {
        return Optional.ofNullable(user).filter(u -> !u.isBlank());
    }

    public DatabaseConfig withCredentials(String newUser, char[] newPassword) {
        return new DatabaseConfig(source, url, newUser, newPassword, sslMode);
    }

    @Override
    public char[] password() {
        return password.clone();
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "DatabaseConfig[source=" + source + ", url=" + (url == null ? "(embedded)" : url) + ", user=" + user + "]";
    }
}
