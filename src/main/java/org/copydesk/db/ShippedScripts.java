package org.copydesk.db;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;
import javax.sql.DataSource;

/**
 * The migration scripts inside this jar, and the quick answer to "does this database record exactly
 * these, all applied?": two statements reading the two histories. Flyway's own answer resolves,
 * reads and validates every script (about 120 ms each time a client connects, and a second of each
 * command's start, where it also loads Flyway itself); this one takes a few milliseconds. Only a yes
 * is taken: anything else (a script pending, changed, failed or unknown, a newer version's, no list
 * in the jar as when run from an IDE) goes to Flyway, which says exactly what and does it.
 *
 * <p>The list of scripts is written at build time ({@code db/scripts.list}, the pom's antrun); their
 * checksums are computed as Flyway computes them (CRC-32 of each line's UTF-8 bytes, line ends left
 * out, a byte-order mark dropped), which ShippedScriptsTest holds against the histories Flyway wrote.
 */
final class ShippedScripts {

    /** One script: {@code version} null for a repeatable one (a routine). */
    record Script(String name, String version, String description, int checksum) {
    }

    static final String LIST = "db/scripts.list";

    private static volatile Optional<ShippedScripts> inThisJar;

    private final List<Script> versioned;
    private final Map<String, Script> repeatable;

    private ShippedScripts(List<Script> scripts) {
        this.versioned = scripts.stream().filter(s -> s.version() != null).toList();
        this.repeatable = new HashMap<>();
        scripts.stream().filter(s -> s.version() == null).forEach(s -> repeatable.put(s.name(), s));
    }

    /** The scripts this jar ships, read once; empty when the build wrote no list. */
    static Optional<ShippedScripts> inThisJar() {
        Optional<ShippedScripts> known = inThisJar;
        if (known == null) {
            known = read(ShippedScripts.class.getClassLoader());
            inThisJar = known;
        }
        return known;
    }

    static Optional<ShippedScripts> read(ClassLoader loader) {
        try (InputStream list = loader.getResourceAsStream(LIST)) {
            if (list == null) {
                return Optional.empty();
            }
            List<Script> scripts = new ArrayList<>();
            for (String path : lines(list)) {
                if (!path.isBlank()) {
                    scripts.add(script(loader, path.strip()));
                }
            }
            return Optional.of(new ShippedScripts(scripts));
        } catch (IOException e) {
            throw new UncheckedIOException("Reading the list of the schema's scripts failed", e);
        }
    }

    List<Script> scripts() {
        List<Script> all = new ArrayList<>(versioned);
        all.addAll(repeatable.values());
        return all;
    }

    /**
     * The schema version when both histories record exactly these scripts, every one applied with
     * this text (or, for versions 1 to 15, the text they had as released: {@link ReleasedChecksums});
     * empty when anything differs, or the histories cannot be read.
     */
    Optional<String> recordedIn(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            return versionedRecorded(s) && routinesRecorded(s) ? Optional.of(latestVersion()) : Optional.empty();
        } catch (SQLException e) {
            return Optional.empty(); // no history yet, or one this account may not read: Flyway says which
        }
    }

    private boolean versionedRecorded(Statement s) throws SQLException {
        Map<String, Script> expected = new HashMap<>();
        versioned.forEach(v -> expected.put(v.version(), v));
        int rows = 0;
        try (ResultSet r = s.executeQuery("select version, description, type, script, checksum, success from "
                + Migrations.SCHEMA_HISTORY)) {
            while (r.next()) {
                rows++;
                Script shipped = expected.get(r.getString("version"));
                int checksum = r.getInt("checksum");
                boolean sameText = shipped != null && !r.wasNull()
                        && (checksum == shipped.checksum() || ReleasedChecksums.isReleasedText(shipped.version(), checksum));
                if (!sameText || !"SQL".equals(r.getString("type")) || !r.getBoolean("success")
                        || !shipped.name().equals(r.getString("script")) || !shipped.description().equals(r.getString("description"))) {
                    return false;
                }
            }
        }
        return rows == expected.size();
    }

    private boolean routinesRecorded(Statement s) throws SQLException {
        Map<String, Integer> lastApplied = new HashMap<>();
        try (ResultSet r = s.executeQuery("select type, script, checksum, success from " + Migrations.ROUTINES_HISTORY
                + " order by installed_rank")) {
            while (r.next()) {
                String type = r.getString("type");
                if ("BASELINE".equals(type)) {
                    continue;
                }
                if (!"SQL".equals(type) || !r.getBoolean("success")) {
                    return false;
                }
                // a routine this version no longer ships keeps its rows, as Flyway's "repeatable:missing" allows
                lastApplied.put(r.getString("script"), r.getInt("checksum"));
            }
        }
        return repeatable.values().stream().allMatch(script -> Integer.valueOf(script.checksum()).equals(lastApplied.get(script.name())));
    }

    private String latestVersion() {
        return versioned.stream().map(Script::version).max(ShippedScripts::compareVersions).orElse("none");
    }

    /** Flyway's order of versions: numbers separated by dots, compared part by part. */
    static int compareVersions(String a, String b) {
        long[] x = Arrays.stream(a.split("\\.")).mapToLong(Long::parseLong).toArray();
        long[] y = Arrays.stream(b.split("\\.")).mapToLong(Long::parseLong).toArray();
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Long.compare(i < x.length ? x[i] : 0, i < y.length ? y[i] : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** A script from its path under db/: "migration/V31__due_minute.sql" or "routines/R__claim.sql". */
    private static Script script(ClassLoader loader, String path) throws IOException {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (!name.endsWith(".sql") || !(name.startsWith("V") || name.startsWith("R__")) || !name.contains("__")) {
            throw new IOException("Not a migration script's name in " + LIST + ": " + path);
        }
        String stem = name.substring(0, name.length() - ".sql".length());
        int split = stem.indexOf("__");
        String version = name.startsWith("R__") ? null : stem.substring(1, split).replace('_', '.');
        String description = stem.substring(split + 2).replace('_', ' ');
        try (InputStream in = loader.getResourceAsStream("db/" + path)) {
            if (in == null) {
                throw new IOException(LIST + " names a script the jar does not hold: " + path);
            }
            return new Script(name, version, description, checksum(in));
        }
    }

    /** Flyway's checksum of a script: CRC-32 of each line's UTF-8 bytes, without line ends or a byte-order mark. */
    static int checksum(InputStream in) throws IOException {
        CRC32 crc = new CRC32();
        boolean first = true;
        for (String line : lines(in)) {
            if (first && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            first = false;
            crc.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return (int) crc.getValue();
    }

    private static List<String> lines(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lines.add(line);
        }
        return lines;
    }
}
