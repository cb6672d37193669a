package org.copydesk.review.imports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jooq.DSLContext;

/**
 * A drop folder on a {@link StepClock}: a test moves time with {@link #after} between looks, and a
 * file being read waits by moving the clock too (plus whatever {@link #whileWaiting} does, e.g. a
 * writer writing on), so nothing sleeps. Quiet period 10 s, looks every 2 s.
 */
final class DropFolderHarness {

    static final Duration LOOK = Duration.ofSeconds(2);
    static final Duration QUIET = Duration.ofSeconds(10);

    final StepClock clock = new StepClock();
    final List<DropFolder.Finished> finished = new ArrayList<>();
    final List<String> waits = new ArrayList<>();
    final DropFolder folder;
    final Path dir;
    private Runnable whileWaiting = () -> { };

    DropFolderHarness(DSLContext dsl, Path dir, OpenWriters writers) {
        this.dir = dir;
        this.folder = new DropFolder(dir, new ArticleImporter(dsl, Clock.systemUTC()), "importer",
                new DropFolder.Timing(LOOK, QUIET, Duration.ofHours(1), clock), new DropFolder.Listener() {
                    @Override
                    public void finished(DropFolder.Finished file) {
                        finished.add(file);
                    }

                    @Override
                    public void waiting(String name, String why) {
                        waits.add(name + ": " + why);
                    }
                }, writers, d -> {
                    clock.advance(d);
                    whileWaiting.run();
                });
    }

    DropFolderHarness(DSLContext dsl, Path dir) {
        this(dsl, dir, OpenWriters.NONE);
    }

    /** What happens each time a file being read waits at its end (a writer carrying on). */
    void whileWaiting(Runnable step) {
        whileWaiting = step;
    }

    /** Moves the clock, then looks once; returns how many files were finished. */
    int after(Duration wait) {
        clock.advance(wait);
        return folder.runOnce();
    }

    /** Looks until the quiet period has passed (a look now, one after the quiet period). */
    int lookUntilQuiet() {
        int n = after(Duration.ZERO);
        return n + after(QUIET);
    }

    /** Every name under the folder but the watcher's lock, as relative paths with '/'. */
    List<String> files() {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> !p.getFileName().toString().equals(".watch.lock"))
                    .map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String read(String relative) {
        try {
            return Files.readString(dir.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An empty newsroom with the one desk the drop-folder tests import to ("news"), and an empty quarantine. */
    static void newsroom(DSLContext dsl) {
        dsl.deleteFrom(org.copydesk.db.schema.Tables.IMPORT_QUARANTINE).execute();
        org.copydesk.testing.Fixtures.emptyNewsroom(dsl);
        new org.copydesk.review.Newsroom(dsl).addDesk("news", "News", Duration.ofMinutes(30));
    }

    /** JSON lines: {@code rows} articles with ids PREFIX-n; every {@code badEvery}-th row has no desk (kept aside). */
    static String rows(String prefix, int rows, int badEvery) {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= rows; i++) {
            s.append("{\"external_id\":\"").append(prefix).append('-').append(i).append('"')
                    .append(badEvery > 0 && i % badEvery == 0 ? "" : ",\"desk\":\"news\"")
                    .append(",\"title\":\"Story ").append(i).append("\",\"body\":\"")
                    .append("Words of the story, long enough to make a file of some size. ".repeat(6)).append("\"}\n");
        }
        return s.toString();
    }
}
