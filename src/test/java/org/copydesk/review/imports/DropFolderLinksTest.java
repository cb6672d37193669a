package org.copydesk.review.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Someone who may drop files tries to make the service read a file it may read and they may not
 * (a secret beside the folder standing in for /etc/passwd): by a symbolic link, a link in a
 * sub-folder the service reads from, a sub-folder replaced by a link, a hard link, a ".." name.
 * Nothing of the secret reaches an article or the quarantine, and the secret is left as it was.
 */
@ExtendWith(DatabaseExtension.class)
class DropFolderLinksTest {

    private static final String SECRET = "root:x:0:0:root:/root:/bin/bash\nsecret-line,with,commas\n";
    private final DSLContext dsl;
    @TempDir
    Path tmp;
    private Path dir;
    private Path secret;

    DropFolderLinksTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeEach
    void setUp() throws Exception {
        DropFolderHarness.newsroom(dsl);
        dir = Files.createDirectory(tmp.resolve("drop"));
        secret = Files.writeString(tmp.resolve("passwd"), SECRET);
    }

    private void nothingOfTheSecretWasRead() throws Exception {
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isZero();
        assertThat(dsl.fetchCount(ARTICLE)).isZero();
        assertThat(Files.readString(secret)).isEqualTo(SECRET);
    }

    @Test
    void aSymbolicLinkIsMovedUnreadToFailedWithAReportSayingWhy() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Files.createSymbolicLink(dir.resolve("passwd.csv"), secret);
        Files.createSymbolicLink(dir.resolve("inside.csv"), dir.resolve("elsewhere.csv")); // even to a name in the folder

        assertThat(drop.after(Duration.ZERO)).as("a link is refused at once").isEqualTo(2);

        assertThat(drop.files()).containsExactly("failed/inside.csv", "failed/inside.csv.report.txt", "failed/passwd.csv",
                "failed/passwd.csv.report.txt");
        assertThat(Files.isSymbolicLink(dir.resolve("failed/passwd.csv"))).as("moved as the link it is").isTrue();
        assertThat(drop.read("failed/passwd.csv.report.txt")).isEqualTo("File: passwd.csv" + System.lineSeparator()
                + "FAILED: passwd.csv was not imported: it is a symbolic link (to " + secret + "); the drop folder reads only"
                + " files written into it. Nothing of it was read." + System.lineSeparator());
        assertThat(drop.finished).allMatch(DropFolder.Finished::failed);
        nothingOfTheSecretWasRead();
    }

    @Test
    void aLinkPlacedInProcessingOrANameWithDotsIsNeverReadAndNeverLeadsOutOfTheFolder() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        // processing/ is where files are resumed from after a crash: a link there must not be read either
        Files.createSymbolicLink(dir.resolve("processing/20260101T000000000Z--abc123--passwd.csv"), secret);
        Files.writeString(dir.resolve("processing/20260101T000000000Z--def456--.."), "external_id,desk,title,body\n"
                + "dots-1,news,A title,A body\n");

        drop.after(Duration.ZERO);

        assertThat(drop.files()).containsExactly("done/unnamed", "done/unnamed.report.txt", "failed/passwd.csv",
                "failed/passwd.csv.report.txt");
        assertThat(drop.read("failed/passwd.csv.report.txt")).contains("it is a symbolic link");
        try (var beside = Files.list(tmp)) {
            assertThat(beside.map(p -> p.getFileName().toString())).as("nothing written outside")
                    .containsExactlyInAnyOrder("drop", "passwd");
        }
        assertThat(dsl.fetchCount(ARTICLE)).as("the file named .. is a plain file of the folder: imported, kept as 'unnamed'")
                .isEqualTo(1);
        assertThat(dsl.fetchCount(IMPORT_QUARANTINE)).isZero();
    }

    @Test
    void aHardLinkToAFileElsewhereIsRefusedOnceItStaysSo() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Files.createLink(dir.resolve("passwd.csv"), secret);

        drop.lookUntilQuiet();

        assertThat(drop.files()).containsExactly("failed/passwd.csv", "failed/passwd.csv.report.txt");
        assertThat(drop.read("failed/passwd.csv.report.txt")).contains("it has 2 names on this disk (a hard link");
        nothingOfTheSecretWasRead();
    }

    @Test
    void aSubFolderReplacedByALinkStopsTheServiceSayingWhy() throws Exception {
        DropFolderHarness drop = new DropFolderHarness(dsl, dir);
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("20260101T000000000Z--abc123--x.csv"), SECRET);
        Files.delete(dir.resolve("processing"));
        Files.createSymbolicLink(dir.resolve("processing"), elsewhere);

        assertThatThrownBy(() -> drop.after(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                .hasMessage(dir.toRealPath().resolve("processing") + " is not a folder of its own (it is a symbolic link);"
                        + " the drop folder will not use it. Remove it; it is made again at the next start.");
        assertThatThrownBy(() -> new DropFolderHarness(dsl, dir)).hasMessageContaining("is not a folder of its own");
        assertThat(Files.readString(elsewhere.resolve("20260101T000000000Z--abc123--x.csv"))).isEqualTo(SECRET);
        nothingOfTheSecretWasRead();
    }
}
