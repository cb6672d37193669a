package org.copydesk.db;

import com.mysql.cj.conf.ConnectionUrl;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

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

    /**
     * Does the URL carry a password, in any form Connector/J reads one from: a parameter
     * ({@code password=}, {@code password1=} to {@code password3=}, in any case, percent-encoded or
     * not), {@code user:password@host}, or a host's own properties ({@code address=(host=…)(password=…)},
     * {@code (host=…,password=…)}). Decided by the driver's own parser, so no spelling it accepts is
     * missed; a URL it cannot parse is left to the connection, which refuses it.
     */
    public boolean urlHoldsPassword() {
        if (url == null) {
            return false;
        }
        ConnectionUrl parsed;
        try {
            parsed = ConnectionUrl.getConnectionUrlInstance(url, new Properties());
        } catch (RuntimeException notAUrlTheDriverReads) {
            return false;
        }
        return parsed.getOriginalProperties().keySet().stream().anyMatch(DatabaseConfig::isPasswordKey)
                || parsed.getHostsList().stream().anyMatch(host -> host.getPassword() != null
                        || host.getHostProperties().keySet().stream().anyMatch(DatabaseConfig::isPasswordKey));
    }

    private static boolean isPasswordKey(String key) {
        return key.toLowerCase(Locale.ROOT).matches("password\\d?");
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
