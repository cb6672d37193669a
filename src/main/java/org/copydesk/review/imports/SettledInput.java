package org.copydesk.review.imports;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A dropped file as its import reads it: opened without following a symbolic link, counted and
 * hashed (SHA-256) as it is read, and ended only once the file has been quiet. At the end of what
 * is there, it looks at the file again: when it has grown, reading goes on; when it changed, it
 * waits until it has not changed for the quiet period; only then is it the end. A writer that
 * paused after the file was taken and carries on while it is read is thus read to its real end.
 */
final class SettledInput extends InputStream {

    /** Waits between looks; the drop folder's own wait ends early when the service stops. */
    interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    /** How long a file must stay unchanged, how often to look, by which clock, waiting how. */
    record Quiet(Duration period, Duration look, Clock clock, Pause pause) {
    }

    private final InputStream in;
    private final Path file;
    private final Quiet quiet;
    private final MessageDigest sha256;
    private FileLook last;
    private Instant since;
    private long bytes;

    /**
     * @param last  the file as last seen before reading, and {@code since} when it was first seen so
     *              (a file taken after its quiet period ends at once when it is still the same)
     */
    SettledInput(Path file, Quiet quiet, FileLook last, Instant since) throws IOException {
        this.file = file;
        this.quiet = quiet;
        this.last = last;
        this.since = since;
        this.in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (true) {
            int n = in.read(b, off, len);
            if (n > 0) {
                sha256.update(b, off, n);
                bytes += n;
                return n;
            }
            if (n < 0 && ended()) {
                return -1;
            }
        }
    }

    /** At the end of what is there: true once the file has been quiet; false when there is more to read. */
    private boolean ended() throws IOException {
        while (true) {
            FileLook now = FileLook.of(file);
            if (now == null || now.size() > bytes) {
                return now == null;
            }
            if (!now.sameContentAs(last)) { // its change time moved when it was taken: only the content counts here
                last = now;
                since = quiet.clock().instant();
            }
            if (!quiet.clock().instant().isBefore(since.plus(quiet.period()))) {
                return true;
            }
            try {
                quiet.pause().pause(quiet.look());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("stopped while waiting for the file to stop changing");
            }
        }
    }

    /** How many bytes were read. */
    long bytes() {
        return bytes;
    }

    /** The SHA-256 of the bytes read so far, in hex. */
    String sha256() {
        try {
            return HexFormat.of().formatHex(((MessageDigest) sha256.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests can be cloned", e);
        }
    }

    /** The file as it was when reading ended. */
    FileLook lastLook() {
        return last;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
