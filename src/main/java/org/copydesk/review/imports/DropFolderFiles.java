package org.copydesk.review.imports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The drop folder's file work: moves (atomic where the system can), reports written whole or not at
 * all, free names in done/ and failed/. Nothing here follows a symbolic link: a link someone put in
 * the folder is moved or replaced as a link, never written through.
 */
final class DropFolderFiles {

    static final String REPORT = ".report.txt";

    private DropFolderFiles() {
    }

    /** The folder's own sub-folder, checked to be a real folder (not a link somewhere else). */
    static Path ownFolder(Path folder, String name) {
        Path sub = folder.resolve(name);
        FileLook look = FileLook.of(sub);
        if (look == null || look.kind() != FileLook.Kind.FOLDER) {
            throw new IllegalStateException(sub + " is not a folder of its own (" + (look == null ? "it is missing"
                    : look.kind() == FileLook.Kind.SYMBOLIC_LINK ? "it is a symbolic link" : "it is a file")
                    + "); the drop folder will not use it. Remove it; it is made again at the next start.");
        }
        return sub;
    }

    /** Why a name is not read, or null when it is a plain file of its own. */
    static String notOwnFile(Path p, FileLook look) {
        return switch (look.kind()) {
            case FILE -> look.links() > 1 ? "it has " + look.links() + " names on this disk (a hard link shares its content"
                    + " with a file elsewhere); copy the file into the folder instead" : null;
            case SYMBOLIC_LINK -> "it is a symbolic link (to " + linkTarget(p) + "); the drop folder reads only files written"
                    + " into it";
            case FOLDER -> "it is a folder";
            case OTHER -> "it is not a plain file (a pipe, socket or device)";
        };
    }

    private static String linkTarget(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "somewhere else";
        }
    }

    /** A name safe to use inside one of the folder's sub-folders: no separators, not "." or "..". */
    static String safeName(String name) {
        boolean unsafe = name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0;
        return unsafe ? "unnamed" : name;
    }

    /** {@code dir/name}, or name-2, name-3 … before the extension when taken (a link counts as taken). */
    static Path unused(Path dir, String name) {
        Path candidate = dir.resolve(name);
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String extension = dot > 0 ? name.substring(dot) : "";
        for (int n = 2; exists(candidate) || exists(candidate.resolveSibling(candidate.getFileName() + REPORT)); n++) {
            candidate = dir.resolve(stem + "-" + n + extension);
        }
        if (!dir.equals(candidate.getParent())) {
            throw new IllegalStateException("the name " + name + " leads out of " + dir);
        }
        return candidate;
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Moves a name (a link moves as a link). Throws NoSuchFileException when it is gone, and
     * {@link InUse} when the system refuses because a program holds it open (Windows does).
     */
    static void move(Path from, Path to) throws NoSuchFileException {
        try {
            try {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to + ": something else took that name", e);
        } catch (FileSystemException e) {
            throw new InUse(from, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }

    /** The system would not move a file, most likely because a program has it open. */
    static final class InUse extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InUse(Path file, FileSystemException cause) {
            super("cannot move " + file + " now: " + cause.getMessage(), cause);
        }
    }

    /** Writes {@code file} whole: to a new file beside it first, forced to disk, then moved into place. */
    static void writeAtomically(Path file, String text) {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.deleteIfExists(part); // a link left there is removed, never written through
            Files.write(part, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.SYNC, LinkOption.NOFOLLOW_LINKS);
            move(part, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report " + file + ": " + e.getMessage(), e);
        }
    }

    /** Adds lines at the end of a report (not through a link). */
    static void append(Path report, String text) {
        try {
            Files.write(report, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add to the report " + report + ": " + e.getMessage(), e);
        }
    }

    /** A report's text after its first line ("File: NAME"). */
    static String readReport(Path report) {
        try {
            String text = Files.readString(report, StandardCharsets.UTF_8);
            int line = text.indexOf(System.lineSeparator());
            return line < 0 ? "" : text.substring(line + System.lineSeparator().length());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report " + report + ": " + e.getMessage(), e);
        }
    }

    /** A report left in processing/ without its file: the file was moved; the report follows it. */
    static void finishOrphanReports(Path processing, Path done, Path failed) {
        for (Path report : sorted(processing, p -> p.getFileName().toString().endsWith(REPORT))) {
            String taken = report.getFileName().toString();
            taken = taken.substring(0, taken.length() - REPORT.length());
            if (exists(report.resolveSibling(taken))) {
                continue;
            }
            String original = safeName(DropFolder.originalName(taken));
            Path dir = readReport(report).startsWith("FAILED") ? failed : done;
            try {
                move(report, dir.resolve(original + REPORT
                        + (exists(dir.resolve(original + REPORT)) ? "." + taken : "")));
            } catch (NoSuchFileException e) {
                // someone moved it meanwhile
            }
        }
    }

    /** The names in {@code dir} that {@code which} accepts, sorted; links and folders included (the caller looks). */
    static List<Path> sorted(Path dir, Predicate<Path> which) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (which.test(p)) {
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
