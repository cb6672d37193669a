package org.copydesk.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The schema version the migrations in {@code db/migration} lead to, read from the scripts' names. */
public final class SchemaVersions {

    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");

    /** "3" when V3__… is the newest script; a new migration needs no test edits. */
    public static final String LATEST = latest(Path.of("db", "migration"));

    private SchemaVersions() {
    }

    static String latest(Path folder) {
        List<Integer> versions = versions(folder);
        if (versions.isEmpty()) {
            throw new IllegalStateException("no versioned migration in " + folder.toAbsolutePath());
        }
        return Integer.toString(versions.get(versions.size() - 1));
    }

    /** The versions of the versioned scripts ({@code V<n>__….sql}) in {@code folder}, in order. */
    public static List<Integer> versions(Path folder) {
        try (Stream<Path> scripts = Files.list(folder)) {
            return scripts.map(p -> VERSIONED.matcher(p.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> Integer.parseInt(m.group(1)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
