package org.copydesk.review.imports;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Files the drop folder finished, watched for a while in case their writer was not done. A move
 * keeps a file's inode, so a program that kept the file open and wrote on after a long pause writes
 * into the copy in done/ (or failed/): its size or modification time then differ from what was
 * imported. Such a file is handed back, once it has been quiet again and nobody visible has it open
 * for writing, to be imported again as a new drop (rows already in count as already present).
 * Kept in memory: after a restart, files finished before it are no longer watched.
 */
final class LateChanges {

    /** A finished file to import again: as it looks now, quiet since {@code since}; its old report gets a note. */
    record Again(Path file, Path report, FileLook look, Instant since, String why) {
    }

    private static final class Watched {
        final Path file;
        final Path report;
        final FileLook imported;
        final Instant finishedAt;
        FileLook changed;
        Instant changedSince;

        Watched(Path file, Path report, FileLook imported, Instant finishedAt) {
            this.file = file;
            this.report = report;
            this.imported = imported;
            this.finishedAt = finishedAt;
        }
    }

    private final DropFolder.Timing timing;
    private final OpenWriters writers;
    private final List<Watched> watched = new ArrayList<>();

    LateChanges(DropFolder.Timing timing, OpenWriters writers) {
        this.timing = timing;
        this.writers = writers;
    }

    /**
     * Starts watching a file just finished (a plain file only: a link refused unread has nothing to
     * import), against the file as its import read it ({@code asRead}; null: as it is now).
     */
    void watch(Path file, Path report, FileLook asRead) {
        FileLook look = asRead != null ? asRead : FileLook.of(file);
        if (look != null && look.kind() == FileLook.Kind.FILE && !timing.watchAfterFinished().isZero()) {
            watched.add(new Watched(file, report, look, timing.clock().instant()));
        }
    }

    /**
     * The watched files that changed since their import and have been quiet since, and nobody visible
     * has open for writing. Each is watched until {@link #handedBack} says it was taken.
     */
    List<Again> changedAndQuiet() {
        Instant now = timing.clock().instant();
        List<Again> again = new ArrayList<>();
        for (Iterator<Watched> it = watched.iterator(); it.hasNext(); ) {
            Watched w = it.next();
            FileLook look = FileLook.of(w.file);
            if (now.isAfter(w.finishedAt.plus(timing.watchAfterFinished())) || look == null || look.kind() != FileLook.Kind.FILE
                    || !java.util.Objects.equals(look.fileKey(), w.imported.fileKey())) {
                it.remove(); // past the watch, or moved away or replaced by someone
                continue;
            }
            if (look.sameContentAs(w.imported)) {
                continue;
            }
            if (w.changed == null || !look.sameAs(w.changed)) {
                w.changed = look;
                w.changedSince = now;
            }
            if (now.isBefore(w.changedSince.plus(timing.quiet()))) {
                continue;
            }
            Set<Path> writing = writers.openForWriting(w.file.getParent());
            if (!writing.contains(w.file)) {
                again.add(new Again(w.file, w.report, look, w.changedSince, String.format(Locale.ROOT, "this file changed after"
                        + " it had been imported as %s (%,d bytes then, %,d now: its writer was still writing); it was imported"
                        + " again, and rows the first import took are counted as already present.", w.file.getFileName(),
                        w.imported.size(), look.size())));
            }
        }
        return again;
    }

    /** The file was taken to be imported again: it is watched no more (its new copy is, once finished). */
    void handedBack(Again again) {
        watched.removeIf(w -> w.file.equals(again.file()));
    }
}
