package org.copydesk.review.imports;

import static org.copydesk.review.imports.DropFolderFiles.REPORT;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watched drop folder: each file that arrives in it is imported once and moved to {@code done/}
 * or {@code failed/} with a report beside it ({@code NAME.report.txt}). This is how wire services
 * and many content systems hand files over. The rules are in {@code docs/import-format.md}.
 *
 * <p><b>When a file is taken.</b> Names starting with a dot or ending in .tmp, .part, .partial or
 * .crdownload are left alone: writing under such a name and renaming the file when it is complete is
 * the one sure way to hand a file over. Any other file is taken once it has not changed (size,
 * modification and change times, names) for the quiet period, by the clock, however many looks that
 * takes, and, where the system shows it (Linux, the same user), once no process has it open for
 * writing. While it is read, reaching its end waits for it to be quiet again (a writer that carries
 * on is read to its real end); after the import its size and content are compared with what was
 * read, and a file that changed is read again. A file that changes after it was finished (its writer
 * kept it open and wrote on after a long pause) is imported again as a new drop, for an hour.
 *
 * <p><b>Only its own files.</b> A symbolic link, a file with other names elsewhere (a hard link), or
 * anything that is not a plain file is never read: it is moved, as it is, to failed/ with a report
 * saying why. Nothing follows a link: the folder's own sub-folders must be folders, not links.
 *
 * <p><b>Surviving a crash half-way through a file.</b> A file is first moved (atomically) into
 * {@code processing/} under a name of its own, and imported from there. An import that was cut off
 * is run again on the next start: rows already imported are recognised by their external id and
 * rows already kept aside by their text, so nothing is imported or kept aside twice. The report is
 * written into {@code processing/} before the file leaves it, so a crash between the two finishes
 * the move without importing again.
 */
public final class DropFolder {

    private static final Logger log = LoggerFactory.getLogger(DropFolder.class);

    /** What became of one file; {@code problem} says why a file failed when no row was read. */
    public record Finished(String name, Path movedTo, Path report, boolean failed, boolean resumed, ImportReport outcome,
                           String problem) {
    }

    /** What the folder tells whoever runs it. */
    public interface Listener {
        void finished(Finished file);

        /** The database is away; the file stays in processing/ and is tried again. */
        void waiting(String name, String why);
    }

    /**
     * @param look               how often the folder is looked at
     * @param quiet              how long a file must stay unchanged before it is taken
     * @param watchAfterFinished how long a finished file is still watched for changes its writer makes late
     */
    public record Timing(Duration look, Duration quiet, Duration watchAfterFinished, Clock clock) {
        public Timing {
            if (look.isNegative() || look.isZero() || quiet.isNegative() || watchAfterFinished.isNegative()) {
                throw new IllegalArgumentException("the look interval must be positive, the quiet period not negative");
            }
        }

        public static Timing of(Duration look, Duration quiet) {
            return new Timing(look, quiet, Duration.ofHours(1), Clock.systemUTC());
        }
    }

    static final String PROCESSING = "processing";
    static final String DONE = "done";
    static final String FAILED = "failed";
    /** processing/ names: TAKEN_AT--RANDOM--ORIGINAL, unique per drop, stable across restarts. */
    private static final String SEPARATOR = "--";
    private static final DateTimeFormatter TAKEN = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String NL = System.lineSeparator();
    static final String RESUMED = "this import was interrupted (the service stopped) and resumed; rows imported before the"
            + " interruption are counted as already present.";

    /** A name in the folder and since when it has looked the same. */
    private record Seen(FileLook look, Instant since) {
    }

    /** How a taken file is read: as last seen (null: look now), and why it is read now when not for the first time. */
    private record Start(FileLook look, Instant since, String why) {
    }

    private final Path folder;
    private final ArticleImporter importer;
    private final String actor;
    private final Timing timing;
    private final Listener listener;
    private final OpenWriters writers;
    private final DroppedFileReader reader;
    private final Map<Path, Seen> arrivals = new HashMap<>();
    private final LateChanges late;
    private final CountDownLatch stopped = new CountDownLatch(1);

    public DropFolder(Path folder, ArticleImporter importer, String actor, Timing timing, Listener listener) {
        this(folder, importer, actor, timing, listener, OpenWriters.forThisSystem(), null);
    }

    /** @param pause how to wait between looks at a file being read; null: the service's own wait, which ends when it stops */
    DropFolder(Path folder, ArticleImporter importer, String actor, Timing timing, Listener listener, OpenWriters writers,
               SettledInput.Pause pause) {
        this.importer = importer;
        this.actor = actor;
        this.timing = timing;
        this.listener = listener;
        this.writers = writers;
        try {
            this.folder = folder.toRealPath();
            if (!Files.isDirectory(this.folder)) {
                throw new IllegalArgumentException("There is no folder " + folder + " to watch.");
            }
            for (String sub : List.of(PROCESSING, DONE, FAILED)) {
                if (!DropFolderFiles.exists(this.folder.resolve(sub))) {
                    Files.createDirectory(this.folder.resolve(sub));
                }
                DropFolderFiles.ownFolder(this.folder, sub);
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("There is no folder " + folder + " to watch.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot make the sub-folders of " + folder + ": " + e.getMessage(), e);
        }
        this.late = new LateChanges(timing, writers);
        this.reader = new DroppedFileReader(this.folder, importer, actor,
                new SettledInput.Quiet(timing.quiet(), timing.look(), timing.clock(), pause != null ? pause : this::pause));
    }

    /**
     * Makes this the one service watching the folder (two would finish each other's files) until
     * the returned handle is closed or the process ends, however it ends.
     */
    public Closeable lock() {
        try {
            FileChannel channel = FileChannel.open(folder.resolve(PROCESSING).resolve(".watch.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("Another copydesk import --watch is watching " + folder + " already.");
            }
            return channel; // closing it releases the lock
        } catch (OverlappingFileLockException e) {
            throw new IllegalStateException("This process is watching " + folder + " already.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot lock " + folder + " for watching: " + e.getMessage(), e);
        }
    }

    /** Looks every {@link Timing#look()} until {@link #stop()}. */
    public void run() throws InterruptedException {
        while (stopped.getCount() > 0) {
            runOnce();
            stopped.await(timing.look().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    public void stop() {
        stopped.countDown();
    }

    private void pause(Duration duration) throws InterruptedException {
        if (stopped.await(duration.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new InterruptedException("the drop folder is stopping");
        }
    }

    /**
     * One look: first finishes what an earlier run left in processing/, then what changed after it
     * was finished, then takes every file that has been quiet long enough. Returns how many files it
     * finished.
     */
    public int runOnce() {
        for (String sub : List.of(PROCESSING, DONE, FAILED)) {
            DropFolderFiles.ownFolder(folder, sub);
        }
        int finished = 0;
        for (Path taken : DropFolderFiles.sorted(folder.resolve(PROCESSING), DropFolder::isTaken)) {
            if (stopped.getCount() == 0) {
                return finished;
            }
            finished += finish(taken, new Start(null, null, RESUMED)) ? 1 : 0;
        }
        DropFolderFiles.finishOrphanReports(folder.resolve(PROCESSING), folder.resolve(DONE), folder.resolve(FAILED));
        for (LateChanges.Again again : late.changedAndQuiet()) {
            Path taken = take(again.file());
            if (taken != null) {
                late.handedBack(again);
                finished += finish(taken, new Start(again.look(), again.since(), again.why())) ? 1 : 0;
                DropFolderFiles.append(again.report(), "  note: this file changed after the import above (its writer was still"
                        + " writing) and was imported again: see the newest report of " + again.file().getFileName() + "." + NL);
            }
        }
        return finished + takeArrivals();
    }

    private int takeArrivals() {
        Instant now = timing.clock().instant();
        List<Path> ready = new ArrayList<>();
        int finished = 0;
        for (Path arrived : DropFolderFiles.sorted(folder, p -> !leftAlone(p))) {
            FileLook look = FileLook.of(arrived);
            if (look == null || look.kind() == FileLook.Kind.FOLDER) {
                continue;
            }
            if (look.kind() != FileLook.Kind.FILE) {
                finished += refuse(arrived, look) ? 1 : 0; // nothing to wait for: a link is never read
                continue;
            }
            Seen seen = arrivals.get(arrived);
            if (seen == null || !look.sameAs(seen.look())) {
                seen = new Seen(look, now);
                arrivals.put(arrived, seen);
            }
            if (!now.isBefore(seen.since().plus(timing.quiet()))) {
                ready.add(arrived);
            }
        }
        Set<Path> writing = ready.isEmpty() ? Set.of() : writers.openForWriting(folder);
        for (Path arrived : ready) {
            if (stopped.getCount() == 0) {
                break;
            }
            if (writing.contains(arrived)) {
                log.debug("{} is still open for writing; looked at again later", arrived);
                continue;
            }
            Seen seen = arrivals.remove(arrived);
            if (seen.look().links() > 1) {
                finished += refuse(arrived, seen.look()) ? 1 : 0;
                continue;
            }
            Path taken = take(arrived);
            if (taken != null) {
                finished += finish(taken, new Start(seen.look(), seen.since(), null)) ? 1 : 0;
            }
        }
        arrivals.keySet().removeIf(p -> !DropFolderFiles.exists(p));
        return finished;
    }

    /** Names a writer is still writing under (write, then rename), and the folder's own. */
    private static boolean leftAlone(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.startsWith(".") || name.endsWith(".tmp") || name.endsWith(".part") || name.endsWith(".partial")
                || name.endsWith(".crdownload") || name.equals(PROCESSING) || name.equals(DONE) || name.equals(FAILED);
    }

    /** A file this service took (not a report, a report being written, or the folder's lock). */
    private static boolean isTaken(Path p) {
        String name = p.getFileName().toString();
        return !name.startsWith(".") && !name.endsWith(REPORT) && !name.endsWith(".part");
    }

    /** Moves an arrived file into processing/ under its own name; null if it went or is held open (looked at again). */
    private Path take(Path arrived) {
        String name = TAKEN.format(timing.clock().instant()) + SEPARATOR + UUID.randomUUID().toString().substring(0, 6)
                + SEPARATOR + arrived.getFileName();
        Path taken = folder.resolve(PROCESSING).resolve(name);
        try {
            DropFolderFiles.move(arrived, taken);
            return taken;
        } catch (NoSuchFileException e) {
            return null;
        } catch (DropFolderFiles.InUse e) {
            log.debug("{}; looked at again later", e.getMessage());
            return null;
        }
    }

    /** Moves what is not a file of its own, unread, to failed/ with a report saying why. */
    private boolean refuse(Path entry, FileLook look) {
        String name = DropFolderFiles.safeName(entry.getFileName().toString());
        String why = name + " was not imported: " + DropFolderFiles.notOwnFile(entry, look) + ". Nothing of it was read.";
        Path target = DropFolderFiles.unused(folder.resolve(FAILED), name);
        Path report = target.resolveSibling(target.getFileName() + REPORT);
        try {
            DropFolderFiles.move(entry, target);
        } catch (NoSuchFileException | DropFolderFiles.InUse e) {
            return false;
        }
        DropFolderFiles.writeAtomically(report, "File: " + name + NL + "FAILED: " + why + NL);
        log.warn("Drop folder {}: {}", folder, why);
        listener.finished(new Finished(name, target, report, true, false, null, why));
        return true;
    }

    /**
     * Imports a taken file (unless its report says it was done) and moves it, report first.
     * Returns false when it could not be finished now (the database is away, or the service stops):
     * the file stays in processing/ for the next look.
     */
    private boolean finish(Path taken, Start start) {
        String original = DropFolderFiles.safeName(originalName(taken.getFileName().toString()));
        Path report = taken.resolveSibling(taken.getFileName() + REPORT);
        boolean failed;
        ImportReport outcome = null;
        String problem = null;
        FileLook asRead = null;
        if (DropFolderFiles.exists(report)) {
            failed = DropFolderFiles.readReport(report).startsWith("FAILED");
        } else {
            FileLook look = FileLook.of(taken);
            if (look == null) {
                return false;
            }
            String text;
            String notOwn = DropFolderFiles.notOwnFile(taken, look);
            if (notOwn != null) {
                failed = true;
                problem = original + " was not imported: " + notOwn + ". Nothing of it was read.";
                text = "FAILED: " + problem + NL;
            } else {
                DroppedFileReader.Reading reading;
                try {
                    reading = reader.read(taken, original, start.look() != null ? start.look() : look,
                            start.look() != null ? start.since() : timing.clock().instant());
                } catch (ImportFailedException e) {
                    if (stopped.getCount() == 0) {
                        return false;
                    }
                    if (databaseAway(e)) {
                        listener.waiting(original, e.getMessage());
                        return false;
                    }
                    reading = null;
                    problem = e.getMessage();
                }
                if (reading == null) {
                    failed = true;
                    text = "FAILED: " + original + " could not be imported: " + problem + NL;
                } else {
                    outcome = reading.outcome();
                    asRead = reading.asRead();
                    failed = outcome.rowsRead() > 0 && outcome.quarantined() == outcome.rowsRead();
                    text = (failed ? "FAILED: no row of " + original + " could be imported." + NL : "")
                            + ImportReportText.of(outcome) + reading.notes();
                }
            }
            if (start.why() != null) {
                text += "  note: " + start.why() + NL;
            }
            DropFolderFiles.writeAtomically(report, "File: " + original + NL + text);
        }
        Path target = DropFolderFiles.unused(folder.resolve(failed ? FAILED : DONE), original);
        Path targetReport = target.resolveSibling(target.getFileName() + REPORT);
        try {
            DropFolderFiles.move(taken, target);
            DropFolderFiles.move(report, targetReport);
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException("the drop folder changed under this service: " + e.getMessage(), e);
        }
        late.watch(target, targetReport, asRead);
        listener.finished(new Finished(original, target, targetReport, failed, RESUMED.equals(start.why()), outcome, problem));
        return true;
    }

    private static boolean databaseAway(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof org.copydesk.lease.DatabaseBusyException) {
                return true;
            }
        }
        return org.copydesk.review.ConnectionTrouble.isConnectionLost(failure);
    }

    static String originalName(String taken) {
        int first = taken.indexOf(SEPARATOR);
        int second = first < 0 ? -1 : taken.indexOf(SEPARATOR, first + SEPARATOR.length());
        return second < 0 ? taken : taken.substring(second + SEPARATOR.length());
    }
}
