package org.copydesk.review.imports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A watched drop folder: each file that arrives in it is imported once and moved to {@code done/}
 * or {@code failed/} with a report beside it ({@code NAME.report.txt}). This is how wire services
 * and many content systems hand files over.
 *
 * <p>Surviving a crash half-way through a file: a file is first moved (atomically) into
 * {@code processing/} under a name of its own, and imported from there. An import that was cut off
 * is simply run again on the next start from the same place: rows already imported are recognised
 * by their external id and rows already kept aside by their text (the importer's own rules), so
 * nothing is imported or kept aside twice. The report is written into {@code processing/} before
 * the file leaves it, so a crash between the two finishes the move without importing again.
 *
 * <p>A file is taken once its size and modification time have not changed between two looks, so
 * a writer that does not rename its files in is not read half-written; names that start with a dot
 * or end in .tmp, .part, .partial or .crdownload are left alone (write under such a name, then
 * rename).
 */
public final class DropFolder {

    /** What became of one file. */
    public record Finished(String name, Path movedTo, Path report, boolean failed, boolean resumed, ImportReport outcome) {
    }

    /** What the folder tells whoever runs it. */
    public interface Listener {
        void finished(Finished file);

        /** The database is away; the file stays in processing/ and is tried again. */
        void waiting(String name, String why);
    }

    static final String PROCESSING = "processing";
    static final String DONE = "done";
    static final String FAILED = "failed";
    private static final String REPORT = ".report.txt";
    /** processing/ names: TAKEN_AT--RANDOM--ORIGINAL, unique per drop, stable across restarts. */
    private static final String SEPARATOR = "--";
    private static final DateTimeFormatter TAKEN = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Path folder;
    private final ArticleImporter importer;
    private final String actor;
    private final Clock clock;
    private final Listener listener;
    private final Map<Path, String> lastLook = new HashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    public DropFolder(Path folder, ArticleImporter importer, String actor, Clock clock, Listener listener) {
        this.folder = folder.toAbsolutePath().normalize();
        this.importer = importer;
        this.actor = actor;
        this.clock = clock;
        this.listener = listener;
        if (!Files.isDirectory(this.folder)) {
            throw new IllegalArgumentException("There is no folder " + folder + " to watch.");
        }
        try {
            for (String sub : List.of(PROCESSING, DONE, FAILED)) {
                Files.createDirectories(this.folder.resolve(sub));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot make the sub-folders of " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * Makes this the one service watching the folder (two would finish each other's files) until
     * the returned handle is closed or the process ends, however it ends.
     */
    public java.io.Closeable lock() {
        try {
            java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(folder.resolve(PROCESSING).resolve(".watch.lock"),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
            java.nio.channels.FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("Another copydesk import --watch is watching " + folder + " already.");
            }
            return channel; // closing it releases the lock
        } catch (java.nio.channels.OverlappingFileLockException e) {
            throw new IllegalStateException("This process is watching " + folder + " already.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot lock " + folder + " for watching: " + e.getMessage(), e);
        }
    }

    /** Looks every {@code interval} until {@link #stop()}. */
    public void run(Duration interval) throws InterruptedException {
        while (stopped.getCount() > 0) {
            runOnce();
            stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    public void stop() {
        stopped.countDown();
    }

    /**
     * One look: first finishes what an earlier run left in processing/, then takes every file that
     * has stopped changing since the last look. Returns how many files it finished.
     */
    public int runOnce() {
        int finished = 0;
        for (Path taken : sorted(folder.resolve(PROCESSING), DropFolder::isTaken)) {
            finished += finish(taken, true) ? 1 : 0;
        }
        finishOrphanReports();
        for (Path arrived : sorted(folder, this::mayTake)) {
            if (stopped.getCount() == 0) {
                break;
            }
            String look = look(arrived);
            if (look != null && look.equals(lastLook.put(arrived, look))) {
                lastLook.remove(arrived);
                Path taken = take(arrived);
                if (taken != null) {
                    finished += finish(taken, false) ? 1 : 0;
                }
            }
        }
        lastLook.keySet().removeIf(p -> !Files.exists(p));
        return finished;
    }

    /** A file this service took (not a report, a report being written, or the folder's lock). */
    private static boolean isTaken(Path p) {
        String name = p.getFileName().toString();
        return !name.startsWith(".") && !name.endsWith(REPORT) && !name.endsWith(".part");
    }

    private boolean mayTake(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(p) && !name.startsWith(".") && !name.endsWith(".tmp") && !name.endsWith(".part")
                && !name.endsWith(".partial") && !name.endsWith(".crdownload");
    }

    private static String look(Path p) {
        try {
            FileTime modified = Files.getLastModifiedTime(p);
            return Files.size(p) + "@" + modified.toMillis();
        } catch (IOException e) {
            return null; // gone or unreadable for now: look again next time
        }
    }

    /** Moves an arrived file into processing/ under its own name; null if someone else took it first. */
    private Path take(Path arrived) {
        String name = TAKEN.format(clock.instant()) + SEPARATOR + java.util.UUID.randomUUID().toString().substring(0, 6)
                + SEPARATOR + arrived.getFileName();
        Path taken = folder.resolve(PROCESSING).resolve(name);
        try {
            move(arrived, taken);
            return taken;
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Imports a taken file (unless its report says it was done) and moves it, report first.
     * Returns false when the database is away (the file stays for the next look).
     */
    private boolean finish(Path taken, boolean resumed) {
        String original = originalName(taken.getFileName().toString());
        Path report = taken.resolveSibling(taken.getFileName() + REPORT);
        boolean failed;
        ImportReport outcome = null;
        if (Files.exists(report)) {
            failed = readReport(report).startsWith("FAILED");
        } else {
            String text;
            try {
                outcome = importer.importFile(taken, actor, ImportListener.NONE);
                failed = outcome.rowsRead() > 0 && outcome.imported() + outcome.alreadyPresent() == 0
                        || outcome.format() == null;
                text = (failed ? "FAILED: no row of " + original + " could be imported." + System.lineSeparator() : "")
                        + ImportReportText.of(outcome);
            } catch (ImportFailedException e) {
                if (databaseAway(e)) {
                    listener.waiting(original, e.getMessage());
                    return false;
                }
                failed = true;
                text = "FAILED: " + original + " could not be imported: " + e.getMessage() + System.lineSeparator();
            }
            if (resumed) {
                text += "  note: this import was interrupted (the service stopped) and resumed; rows imported before"
                        + " the interruption are counted as already present." + System.lineSeparator();
            }
            writeAtomically(report, "File: " + original + System.lineSeparator() + text);
        }
        Path target = unused(folder.resolve(failed ? FAILED : DONE), original);
        Path targetReport = target.resolveSibling(target.getFileName() + REPORT);
        try {
            move(taken, target);
            move(report, targetReport);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UncheckedIOException("the drop folder changed under this service: " + e.getMessage(), e);
        }
        listener.finished(new Finished(original, target, targetReport, failed, resumed, outcome));
        return true;
    }

    /** A report left in processing/ without its file: the file was moved; the report follows it. */
    private void finishOrphanReports() {
        for (Path report : sorted(folder.resolve(PROCESSING), p -> p.getFileName().toString().endsWith(REPORT))) {
            String taken = report.getFileName().toString();
            taken = taken.substring(0, taken.length() - REPORT.length());
            if (Files.exists(report.resolveSibling(taken))) {
                continue;
            }
            String original = originalName(taken);
            boolean failed = readReport(report).startsWith("FAILED");
            Path dir = folder.resolve(failed ? FAILED : DONE);
            try {
                move(report, dir.resolve(original + REPORT + (Files.exists(dir.resolve(original + REPORT)) ? "." + taken : "")));
            } catch (java.nio.file.NoSuchFileException e) {
                // someone moved it meanwhile
            }
        }
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

    /** {@code dir/name}, or name-2, name-3 … before the extension when taken. */
    private static Path unused(Path dir, String name) {
        Path candidate = dir.resolve(name);
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : "";
        for (int n = 2; Files.exists(candidate) || Files.exists(candidate.resolveSibling(candidate.getFileName() + REPORT)); n++) {
            candidate = dir.resolve(stem + "-" + n + extension);
        }
        return candidate;
    }

    private static void move(Path from, Path to) throws java.nio.file.NoSuchFileException {
        try {
            try {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }

    private static void writeAtomically(Path file, String text) {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.writeString(part, text, StandardCharsets.UTF_8);
            try (var channel = java.nio.channels.FileChannel.open(part, java.nio.file.StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            move(part, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report " + file + ": " + e.getMessage(), e);
        }
    }

    private static String readReport(Path report) {
        try {
            String text = Files.readString(report, StandardCharsets.UTF_8);
            int line = text.indexOf(System.lineSeparator());
            return line < 0 ? "" : text.substring(line + System.lineSeparator().length());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report " + report + ": " + e.getMessage(), e);
        }
    }

    private static List<Path> sorted(Path dir, java.util.function.Predicate<Path> which) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isRegularFile(p) && which.test(p)) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        files.sort(null);
        return files;
    }
}
