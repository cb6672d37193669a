package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.junit.jupiter.api.Test;

/** The wait both windows watch: work handed over and not answered, measured against the window's limit. */
class UnansweredWorkTest {

    private final ManualTicker ticker = new ManualTicker();
    private final HeldBackTasks held = new HeldBackTasks();
    private final UnansweredWork work = new UnansweredWork(held, ticker, Duration.ofSeconds(3));

    @Test
    void workWaitingLongerThanTheLimitIsTooLongUntilItsAnswerComes() {
        assertThat(work.waitingTooLong()).as("nothing handed over").isFalse();
        work.run("read", () -> 1, ok -> { }, failed -> { });
        ticker.advance(Duration.ofSeconds(1));
        work.run("read again", () -> 2, ok -> { }, failed -> { });
        ticker.advance(Duration.ofSeconds(2));

        assertThat(work.longestWait()).as("the oldest work counts").isEqualTo(Duration.ofSeconds(3));
        assertThat(work.waitingTooLong()).as("at the limit, not past it").isFalse();
        ticker.advance(Duration.ofMillis(1));
        assertThat(work.waitingTooLong()).isTrue();

        held.deliver();
        assertThat(work.longestWait()).isEqualTo(Duration.ZERO);
        assertThat(work.waitingTooLong()).isFalse();
    }

    @Test
    void aFailureIsAnAnswerToo() {
        work.run("read", () -> {
            throw new IllegalStateException("refused");
        }, ok -> { }, failed -> { });
        ticker.advance(Duration.ofSeconds(4));
        assertThat(work.waitingTooLong()).isTrue();

        held.deliver();
        assertThat(work.waitingTooLong()).isFalse();
    }
}
