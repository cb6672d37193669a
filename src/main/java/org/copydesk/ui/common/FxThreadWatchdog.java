package org.copydesk.ui.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures how long the FX thread goes without answering, and catches it waiting on I/O.
 *
 * <p>A daemon thread posts a ping to the FX thread every 10 ms and measures how late it runs
 * (the stall). While a ping is overdue by more than the threshold it samples the FX thread's stack:
 * a stall with a JDBC, socket or file read on that stack is I/O on the FX thread, which Copydesk
 * never allows. Enabled in tests and with {@code -Dcopydesk.fxWatchdog=true}.
 */
public final class FxThreadWatchdog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FxThreadWatchdog.class);

    /** Stack frames that mean "waiting on I/O". */
    private static final List<String> IO_FRAMES = List.of("java.sql.", "com.mysql.", "com.zaxxer.hikari.", "java.net.Socket",
            "java.net.InetAddress", "sun.nio.ch.", "java.io.FileInputStream", "sun.nio.fs.", "org.jooq.impl.AbstractQuery.execute");
    // (not all of java.net: parsing a stylesheet's URI on the FX thread is CPU work, not I/O)
    /**
     * Frames of the JVM loading a class, and of Java or JavaFX reading one of the app's own resources
     * (a message bundle, a stylesheet, an image, the icon font), the first time the FX thread meets it. Run from a
     * build's class folder that reads a file (from the app's jar or runtime image it does not); it
     * happens once per class or resource, wherever first used, so it is not I/O the code asked for.
     */
    private static final List<String> CLASS_PATH_READS = List.of("java.lang.ClassLoader.loadClass",
            "jdk.internal.loader.BuiltinClassLoader.loadClass", "jdk.internal.loader.ClassLoaders$AppClassLoader.loadClass",
            "jdk.internal.loader.BuiltinClassLoader.findResource", "java.lang.ClassLoader.getResource",
            "java.lang.Class.getResource", "java.util.ResourceBundle.getBundle",
            "com.sun.javafx.css.StyleManager.loadStylesheet", "javafx.scene.image.Image.<init>",
            "javafx.scene.text.Font.loadFont", "org.kordamp.ikonli.");

    private final long thresholdNanos;
    private final AtomicLong maxStallNanos = new AtomicLong();
    private final AtomicLong stallsOverThreshold = new AtomicLong();
    private final List<String> ioOnFxThread = Collections.synchronizedList(new ArrayList<>());
    private volatile Thread fxThread;
    private volatile boolean running = true;
    private final Thread watcher;

    public FxThreadWatchdog(long thresholdMillis) {
        this.thresholdNanos = thresholdMillis * 1_000_000;
        Platform.runLater(() -> fxThread = Thread.currentThread());
        watcher = new Thread(this::watch, "copydesk-fx-watchdog");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        while (running) {
            AtomicLong answered = new AtomicLong();
            long sent = System.nanoTime();
            Platform.runLater(() -> answered.set(System.nanoTime()));
            boolean sampled = false;
            while (running && answered.get() == 0) {
                sleep(2);
                long late = System.nanoTime() - sent;
                if (!sampled && late > thresholdNanos && fxThread != null) {
                    sampled = true;
                    inspect(fxThread.getStackTrace(), late);
                }
            }
            long stall = answered.get() - sent;
            maxStallNanos.accumulateAndGet(stall, Math::max);
            if (stall > thresholdNanos) {
                stallsOverThreshold.incrementAndGet();
            }
            sleep(10);
        }
    }

    private void inspect(StackTraceElement[] stack, long lateNanos) {
        boolean loadingClasses = Arrays.stream(stack).anyMatch(f -> CLASS_PATH_READS.stream()
                .anyMatch((f.getClassName() + "." + f.getMethodName())::startsWith));
        for (StackTraceElement frame : stack) {
            String where = frame.getClassName() + "." + frame.getMethodName();
            if (IO_FRAMES.stream().anyMatch(where::startsWith) && !loadingClasses) {
                // the innermost frames too: which read it was (a resource, a font, a file of the app's own)
                String report = "FX thread waited " + lateNanos / 1_000_000 + " ms in " + where + " called from "
                        + firstCopydeskFrame(stack) + " (innermost: " + Arrays.stream(stack).limit(12)
                        .map(f -> f.getClassName() + "." + f.getMethodName()).collect(Collectors.joining(" < ")) + ")";
                log.error(report);
                ioOnFxThread.add(report);
                return;
            }
        }
        log.debug("FX thread busy for {} ms (no I/O): {}", lateNanos / 1_000_000, firstCopydeskFrame(stack));
    }

    private static String firstCopydeskFrame(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().startsWith("org.copydesk.")) {
                return frame.toString();
            }
        }
        return stack.length > 0 ? stack[0].toString() : "?";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Longest the FX thread went without answering since the last reset, in ms. */
    public long maxStallMillis() {
        return maxStallNanos.get() / 1_000_000;
    }

    public long stallsOverThreshold() {
        return stallsOverThreshold.get();
    }

    /** Each time the FX thread was caught in I/O, with where it was called from. */
    public List<String> ioOnFxThread() {
        return List.copyOf(ioOnFxThread);
    }

    public void reset() {
        maxStallNanos.set(0);
        stallsOverThreshold.set(0);
        ioOnFxThread.clear();
    }

    @Override
    public void close() {
        running = false;
    }
}
