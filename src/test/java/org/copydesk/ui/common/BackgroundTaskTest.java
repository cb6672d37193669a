package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.SimpleBooleanProperty;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.junit.jupiter.api.Test;

/** The view models' shared plumbing: background work with a lifecycle, notices, connection state. */
class BackgroundTaskTest {

    @Test
    void theBusyFlagIsSetWhileInFlightAndClearedAfterSuccessOrFailure() {
        HeldBackTasks tasks = new HeldBackTasks();
        SimpleBooleanProperty busy = new SimpleBooleanProperty();
        List<String> seen = new ArrayList<>();

        BackgroundTask.of("ok", () -> 42).busy(busy).onSuccess(r -> seen.add("got " + r)).executeWith(tasks);
        assertThat(busy.get()).isTrue();
        tasks.deliver();
        assertThat(busy.get()).isFalse();

        BackgroundTask.<Integer>of("fails", () -> {
            throw new IllegalStateException("no");
        }).busy(busy).onFailure(e -> seen.add("failed " + e.getMessage())).executeWith(tasks);
        assertThat(busy.get()).isTrue();
        tasks.deliver();
        assertThat(busy.get()).isFalse();
        assertThat(seen).containsExactly("got 42", "failed no");
    }

    @Test
    void aCancelledTaskDeliversNothingButStillFinishes() {
        HeldBackTasks tasks = new HeldBackTasks();
        List<String> seen = new ArrayList<>();
        BackgroundTask.Cancellable running = BackgroundTask.of("late", () -> "stale")
                .onSuccess(seen::add).onFinished(() -> seen.add("finished")).executeWith(tasks);
        assertThat(running.isDone()).isFalse();

        running.cancel();
        tasks.deliver();

        assertThat(seen).containsExactly("finished");
        assertThat(running.isCancelled()).isTrue();
        assertThat(running.isDone()).isTrue();
    }

    @Test
    void theNoticeBoardKeepsFourNewestFirstAndFadesOnlyTheQuietOnes() {
        ManualTicker ticker = new ManualTicker();
        NoticeBoard board = new NoticeBoard(ticker, Duration.ofSeconds(8));
        board.post(Notice.Kind.ERROR, "error");
        for (int i = 0; i < 4; i++) {
            board.post(Notice.Kind.INFO, "info " + i);
        }
        assertThat(board.list()).extracting(Notice::text).containsExactly("info 3", "info 2", "info 1", "info 0");

        board.post(Notice.Kind.WARNING, "warning");
        ticker.advance(Duration.ofSeconds(9));
        board.fade();
        assertThat(board.list()).extracting(Notice::text).containsExactly("warning");
    }

    @Test
    void theSameWordsTwiceShowOnceAndFadeFromTheSecondTime() {
        // seen in a working day: two Ctrl+Enter on a send-back without notes stacked two equal warnings
        ManualTicker ticker = new ManualTicker();
        NoticeBoard board = new NoticeBoard(ticker, Duration.ofSeconds(8));
        board.post(Notice.Kind.WARNING, "Send back needs a note: say why.");
        board.post(Notice.Kind.INFO, "Approved \u201cA\u201d.");
        ticker.advance(Duration.ofSeconds(5));
        board.post(Notice.Kind.WARNING, "Send back needs a note: say why.");
        assertThat(board.list()).extracting(Notice::text)
                .containsExactly("Send back needs a note: say why.", "Approved \u201cA\u201d.");

        ticker.advance(Duration.ofSeconds(4));
        board.fade();
        assertThat(board.list()).extracting(Notice::text).containsExactly("Send back needs a note: say why.");
    }

    @Test
    void nothingFadesWhileTheWindowIsBehindAnotherAndAllGetTheirTimeWhenItComesBack() {
        // seen in a working day: "Sue gave you …" faded in a window behind another before anyone saw it
        ManualTicker ticker = new ManualTicker();
        NoticeBoard board = new NoticeBoard(ticker, Duration.ofSeconds(8));
        board.post(Notice.Kind.INFO, "Sue gave you \u201cA\u201d.");
        ticker.advance(Duration.ofMinutes(5));
        board.fade(false);
        assertThat(board.list()).extracting(Notice::text).containsExactly("Sue gave you \u201cA\u201d.");

        board.fade(true); // back in front: the clock starts again
        ticker.advance(Duration.ofSeconds(7));
        board.fade(true);
        assertThat(board.list()).hasSize(1);
        ticker.advance(Duration.ofSeconds(2));
        board.fade(true);
        assertThat(board.list()).isEmpty();
    }

    @Test
    void successesFadeEvenWhileTheWindowIsBehindAnother() {
        // seen in a working day: "Approved …" stayed over 5 minutes, "Back online" about 6, in windows behind others
        ManualTicker ticker = new ManualTicker();
        NoticeBoard board = new NoticeBoard(ticker, Duration.ofSeconds(8));
        board.fade(true);
        board.post(Notice.Kind.SUCCESS, "Approved \u201cA\u201d.");
        board.fade(false); // the editor switched to another window
        board.post(Notice.Kind.SUCCESS, "Back online.");
        board.post(Notice.Kind.INFO, "Sue gave you \u201cB\u201d.");
        ticker.advance(Duration.ofSeconds(9));
        board.fade(false);

        assertThat(board.list()).extracting(Notice::text).containsExactly("Sue gave you \u201cB\u201d.");
    }

    @Test
    void theConnectionRetriesLaterEachTimeUpToTheMaximumAndSaysWhen() {
        ManualTicker ticker = new ManualTicker();
        ConnectionStatus status = new ConnectionStatus(ticker, Duration.ofSeconds(1), Duration.ofSeconds(4), "Kept here;");
        assertThat(status.lost()).isTrue();
        assertThat(status.lost()).as("already offline: no news").isFalse();
        assertThat(status.bannerProperty().get()).isEqualTo("Copydesk cannot reach the database. Kept here; trying again in 1 s.");
        assertThat(status.startProbeIfDue()).isFalse();

        ticker.advance(Duration.ofSeconds(1));
        assertThat(status.startProbeIfDue()).isTrue();
        assertThat(status.startProbeIfDue()).as("one probe at a time").isFalse();
        status.probeFailed();
        status.startProbeIfDue();
        ticker.advance(Duration.ofSeconds(2));
        assertThat(status.startProbeIfDue()).isTrue();
        status.probeFailed();
        ticker.advance(Duration.ofSeconds(4));
        assertThat(status.startProbeIfDue()).isTrue();
        status.probeFailed();
        assertThat(status.bannerProperty().get()).endsWith("trying again in 4 s.");

        status.back();
        assertThat(status.isOffline()).isFalse();
        assertThat(status.bannerProperty().get()).isEmpty();
    }
}
