package org.copydesk.review.imports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;

/**
 * What one look at a name in the drop folder sees, never following a symbolic link: what kind of
 * thing it is, and everything that changes when someone writes to it (size, modification time, and
 * where the system keeps them, the inode's change time and its number of names). Two equal looks
 * mean nobody wrote in between, as far as the file system can tell.
 *
 * @param links how many names the file has (more than 1: a hard link shares its content with a name elsewhere)
 */
record FileLook(Kind kind, long size, FileTime modified, FileTime changed, Object fileKey, int links) {

    enum Kind {
        FILE, SYMBOLIC_LINK, FOLDER, OTHER
    }

    /** The look at {@code path}, or null when nothing is there (any more). */
    static FileLook of(Path path) {
        try {
            BasicFileAttributes basic = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Kind kind = basic.isSymbolicLink() ? Kind.SYMBOLIC_LINK : basic.isDirectory() ? Kind.FOLDER
                    : basic.isRegularFile() ? Kind.FILE : Kind.OTHER;
            FileTime changed = null;
            int links = 1;
            if (UNIX) {
                Map<String, Object> unix = Files.readAttributes(path, "unix:ctime,nlink", LinkOption.NOFOLLOW_LINKS);
                changed = (FileTime) unix.get("ctime");
                links = (Integer) unix.get("nlink");
            }
            return new FileLook(kind, basic.size(), basic.lastModifiedTime(), changed, basic.fileKey(), links);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null; // unreadable for now: looked at again next time
        }
    }

    private static final boolean UNIX = java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

    /** Nothing was written to it between the two looks. */
    boolean sameAs(FileLook other) {
        return other != null && kind == other.kind && size == other.size && modified.equals(other.modified)
                && Objects.equals(changed, other.changed) && Objects.equals(fileKey, other.fileKey) && links == other.links;
    }

    /** Its content is as it was (its name may have changed: a move keeps the inode and these). */
    boolean sameContentAs(FileLook other) {
        return other != null && size == other.size && modified.equals(other.modified) && Objects.equals(fileKey, other.fileKey);
    }
}
