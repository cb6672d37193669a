package org.copydesk.review.outcomes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.copydesk.review.Phrase;

/**
 * Where the relay's signing secret comes from: the environment ({@value #ENVIRONMENT}) or a file
 * that only its owner may read. A file others may read is refused, as ssh refuses such a key: the
 * secret would not be one.
 */
public final class RelaySecret {

    public static final String ENVIRONMENT = "COPYDESK_RELAY_SECRET";

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private RelaySecret() {
    }

    /** The secret from {@code file} if given, else from the environment; refused when neither has one. */
    public static byte[] load(Path file, Map<String, String> environment) {
        if (file != null) {
            return fromFile(file);
        }
        String value = environment.get(ENVIRONMENT);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretMissing", ENVIRONMENT).text());
        }
        return value.strip().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] fromFile(Path file) {
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix == null) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretNoPermissions", file, ENVIRONMENT).text());
        }
        try {
            Set<PosixFilePermission> permissions = posix.readAttributes().permissions();
            if (permissions.stream().anyMatch(OTHERS::contains)) {
                throw new IllegalArgumentException(Phrase.of("review.relay.secretReadable", file).text());
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                throw new IllegalArgumentException(Phrase.of("review.relay.secretEmpty", file).text());
            }
            return text.getBytes(StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretNoFile", file).text(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretUnreadable", file, e.getMessage()).text(), e);
        }
    }
}
