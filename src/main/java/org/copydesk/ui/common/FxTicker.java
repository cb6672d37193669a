package org.copydesk.ui.common;

import java.time.Duration;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;

/** {@link Ticker} on JavaFX timelines. */
public final class FxTicker implements Ticker {

    @Override
    public AutoCloseable every(Duration period, Runnable action) {
        Timeline timeline = new Timeline(new KeyFrame(javafx.util.Duration.millis(period.toMillis()), e -> action.run()));
        timeline.setCycleCount(Animation.INDEFINITE);
        timeline.play();
        return timeline::stop;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
