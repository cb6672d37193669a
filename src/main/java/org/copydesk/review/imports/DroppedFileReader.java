package org.copydesk.review.imports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one file the drop folder took: imports it as {@link SettledInput} reads it (to the end it
 * has once quiet, counted and hashed), then compares the file with what was read. A file that
 * changed meanwhile is read again, at most {@value #MOST_READINGS} times; rows an earlier reading
 * took count as already present. The notes say what was read (bytes and SHA-256) and what changed.
 */
final class DroppedFileReader {

    private static final Logger log = LoggerFactory.getLogger(DroppedFileReader.class);
    private static final int MOST_READINGS = 3;
    private static final String NL = System.lineSeparator();

    private final Path folder;
    private final ArticleImporter importer;
    private final String actor;
    private final SettledInput.Quiet quiet;

    DroppedFileReader(Path folder, ArticleImporter importer, String actor, SettledInput.Quiet quiet) {
        this.folder = folder;
        this.importer = importer;
        this.actor = actor;
        this.quiet = quiet;
    }

    /** One import of a taken file, read as often as it changed under the reading (at most {@value #MOST_READINGS} times). */
    /** @param asRead the file as it was when the last reading ended: what the import took */
    record Reading(ImportReport outcome, String notes, FileLook asRead) {
    }

    /**
     * Imports {@code taken} under its original name, as {@link SettledInput} reads it, and again if it
     * changed under the reading.
     *
     * @param last  the file as last seen, unchanged since {@code since}
     */
    Reading read(Path taken, String original, FileLook last, Instant since) {
        String source = folder.resolve(original).toString();
        StringBuilder changes = new StringBuilder();
        for (int reading = 1; ; reading++) {
            ImportReport outcome;
            long bytes;
            FileLook end;
            String read;
            try (SettledInput in = new SettledInput(taken, quiet, last, since)) {
                outcome = importer.importOpened(in, source, last.size(),
                        () -> Files.newInputStream(taken, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS), actor,
                        ImportListener.NONE);
                bytes = in.bytes();
                end = in.lastLook();
                read = String.format(Locale.ROOT, "  note: read %,d bytes, SHA-256 %s.%n", bytes, in.sha256());
            } catch (IOException e) {
                throw new ImportFailedException("cannot read " + original + ": " + e.getMessage(), null, e);
            }
            FileLook after = FileLook.of(taken);
            boolean unchanged = after == null || after.size() == bytes && after.sameContentAs(end);
            if (unchanged || reading == MOST_READINGS) {
                if (!unchanged) {
                    changes.append("  note: the file was still changing after ").append(MOST_READINGS).append(" readings; what"
                            + " was read is imported, and the service imports it again once it has stopped changing.").append(NL);
                }
                return new Reading(outcome, read + changes, end);
            }
            log.info("{} changed while it was read ({} bytes read, {} now); reading it again", original, bytes, after.size());
            last = after;
            since = quiet.clock().instant();
            changes.append(String.format(Locale.ROOT, "  note: the file changed while it was read (%,d bytes read, %,d there"
                    + " after); it was read again to its end, and rows the earlier reading took are counted as already"
                    + " present.%n", bytes, after.size()));
        }
    }
}
