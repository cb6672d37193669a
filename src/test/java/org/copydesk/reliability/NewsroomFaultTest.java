package org.copydesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.copydesk.db.EmbeddedServerTestFolders;
import org.junit.jupiter.api.Test;

/**
 * The short form of the newsroom fault run ({@link NewsroomFaultRun}): 24 editors in four client
 * processes over 1,000 articles for at most 24 s, with SIGKILLed clients, killed connections, a slow
 * and lossy network, a client fourteen hours ahead, and a server restart; one desk reviews in two
 * stages (Copy edit, then Sign-off with four eyes), the other in one. Every promise is checked
 * from the database and the event log; the only timing checked is the dead leases' expiry, against
 * ttl + release interval with generous slack.
 */
class NewsroomFaultTest {

    @Test
    void nothingHeldTwiceNothingLostNothingDoubledUnderFaults() throws Exception {
        // the fork's own-server folder: its MariaDB binaries are unpacked once per test JVM
        Path workdir = EmbeddedServerTestFolders.fresh();
        NewsroomFaultRun.Results results = new NewsroomFaultRun(NewsroomFaultRun.Settings.shortForm(workdir)).run();

        assertThat(results.problems()).as("broken promises; counts:%n%s", results.summary()).isEmpty();
        assertThat(results.counts()).containsEntry("leases held twice", 0L)
                .containsEntry("decisions lost (confirmed but missing)", 0L)
                .containsEntry("articles with two final decisions", 0L)
                .containsEntry("drafts lost", 0L)
                .containsEntry("signed off by whoever copy-edited them (four eyes broken)", 0L);
        // The faults happened: without them the run proves nothing.
        assertThat(results.counts()).containsEntry("client processes killed (SIGKILL)", 2)
                .containsEntry("server restarts", 1);
        assertThat((String) results.counts().get("connections killed (KILL CONNECTION)")).doesNotStartWith("0 ");
        assertThat((Integer) results.counts().get("articles approved")).isPositive();
        assertThat((Integer) results.counts().get("articles signed off")).as("articles through both stages").isPositive();
    }
}
