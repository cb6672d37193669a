package org.copydesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The short form of the newsroom fault run ({@link NewsroomFaultRun}): 52 editors in four client
 * processes over 2,000 articles for about 35 s, with SIGKILLed clients, killed connections, a slow
 * and lossy network, a client fourteen hours ahead, and a server restart. Every promise is checked
 * from the database and the event log; the only timing checked is the dead leases' expiry, against
 * ttl + release interval with generous slack.
 */
class NewsroomFaultTest {

    @Test
    void nothingHeldTwiceNothingLostNothingDoubledUnderFaults() throws Exception {
        Path workdir = Path.of(System.getProperty("copydesk.test.workdir", "target/test-db")).resolve("newsroom-fault");
        NewsroomFaultRun.Results results = new NewsroomFaultRun(NewsroomFaultRun.Settings.shortForm(workdir)).run();

        assertThat(results.problems()).as("broken promises; counts:%n%s", results.summary()).isEmpty();
        assertThat(results.counts()).containsEntry("leases held twice", 0L)
                .containsEntry("decisions lost (confirmed but missing)", 0L)
                .containsEntry("articles with two final decisions", 0L)
                .containsEntry("drafts lost", 0L);
        // The faults happened: without them the run proves nothing.
        assertThat(results.counts()).containsEntry("client processes killed (SIGKILL)", 2)
                .containsEntry("server restarts", 1);
        assertThat((String) results.counts().get("connections killed (KILL CONNECTION)")).doesNotStartWith("0 ");
        assertThat((Integer) results.counts().get("articles approved")).isPositive();
    }
}
