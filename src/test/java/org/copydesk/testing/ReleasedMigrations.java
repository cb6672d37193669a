package org.copydesk.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;

/**
 * The versioned migrations V1 to V15 exactly as they were released, when they still defined the
 * routines (a zip under {@code src/test/resources}, so they stay frozen): they build a database as
 * an earlier Copydesk left it, and they validate a history as the clients of an earlier release do.
 */
public final class ReleasedMigrations {

    private static final String ZIP = "/org/copydesk/db/migrations-released-up-to-v15.zip";
    private static Path unzipped;

    private ReleasedMigrations() {
    }

    /** The released schema versions, oldest first. */
    public static List<Integer> versions() {
        return SchemaVersions.versions(folder());
    }

    /** Brings an empty database to {@code version} with the released scripts, as that release did. */
    public static void migrateTo(DataSource dataSource, int version) {
        released(dataSource, version).migrate();
    }

    /**
     * Validates the schema history as a client of the release at {@code version} does: Flyway's
     * defaults, with the scripts that release shipped (V1 to {@code version}). Throws when that
     * client would refuse to start.
     */
    public static void validateAsReleaseOf(DataSource dataSource, int version) {
        released(dataSource, version).validate();
    }

    /** The checksum of each released script, by version, as Flyway computes it (read against {@code dataSource}). */
    public static Map<String, Integer> checksums(DataSource dataSource) {
        List<Integer> versions = versions();
        return Arrays.stream(released(dataSource, versions.get(versions.size() - 1)).info().all())
                .filter(m -> m.getVersion() != null && m.getResolvedChecksum() != null) // not the versions after the release
                .collect(Collectors.toMap(m -> m.getVersion().getVersion(), MigrationInfo::getResolvedChecksum));
    }

    private static synchronized Flyway released(DataSource dataSource, int version) {
        Path scripts = folder().resolveSibling("up-to-v" + version);
        try {
            if (!Files.isDirectory(scripts)) {
                Files.createDirectory(scripts);
                try (DirectoryStream<Path> all = Files.newDirectoryStream(folder(), "V*.sql")) {
                    for (Path script : all) {
                        if (Integer.parseInt(script.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1")) <= version) {
                            Files.copy(script, scripts.resolve(script.getFileName()));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Flyway.configure().dataSource(dataSource).locations("filesystem:" + scripts.toAbsolutePath()).load();
    }

    private static synchronized Path folder() {
        if (unzipped == null) {
            try (InputStream in = ReleasedMigrations.class.getResourceAsStream(ZIP);
                 ZipInputStream zip = new ZipInputStream(in)) {
                Path root = Files.createTempDirectory("released-migrations");
                Path all = Files.createDirectory(root.resolve("all"));
                for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                    Files.copy(zip, all.resolve(Path.of(e.getName()).getFileName().toString()));
                }
                unzipped = all;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return unzipped;
    }
}
