package org.copydesk.bench;

import java.io.IOException;
import org.copydesk.lease.ClaimStrategyKind;

/**
 * What works alongside the measured window in one phase of {@link EditorFeelBenchmark}: started
 * before the phase settles, counted from {@link #measure()}, stopped with its figures after it.
 */
interface Alongside {

    /**
     * What the load did while measured: rows claimed and decided per second, its claim p50 and p99,
     * sign-ins refused and errors (-1: not counted for this load), and the CPU of the JVM it ran in
     * per second of the phase (-1: the window's own JVM).
     */
    record Figures(double rowsPerSecond, long claimP50Micros, long claimP99Micros, long refused, long errors,
                   double jvmCpuMsPerSecond) {
    }

    void start() throws IOException;

    void measure() throws IOException;

    Figures stop(double seconds) throws IOException;

    /** Stops the load after a failed phase, so that it does not keep the JVM or the server busy. */
    void abort();

    /** {@code EditorFeelBenchmark.EDITORS} simulated editors in the window's JVM, claiming and approving at full speed. */
    static Alongside editors(EditorSessions others) {
        return new Alongside() {
            private Load load;

            @Override
            public void start() {
                load = new Load(others.cell(EditorFeelBenchmark.EDITORS, ClaimStrategyKind.SKIP_LOCKED).owners(), "editor");
                load.start();
            }

            @Override
            public void measure() {
                load.measuring(true);
            }

            @Override
            public Figures stop(double seconds) {
                load.measuring(false);
                long[] claims = load.latencies();
                Figures figures = new Figures(load.rows.get() / seconds, ClaimBenchmark.percentile(claims, 0.50),
                        ClaimBenchmark.percentile(claims, 0.99), -1, -1, -1);
                load.stop();
                return figures;
            }

            @Override
            public void abort() {
                if (load != null) {
                    load.stop();
                }
            }
        };
    }

    /** Desktop clients in a JVM of their own, already signed in; their working clients work during the phase. */
    static Alongside clients(ClientNewsroom.InOwnJvm jvm) {
        return new Alongside() {
            private long cpuBefore;

            @Override
            public void start() {
                jvm.work();
            }

            @Override
            public void measure() {
                cpuBefore = jvm.cpuMillis();
                jvm.measure();
            }

            @Override
            public Figures stop(double seconds) throws IOException {
                ClientNewsroom.Figures f = jvm.report();
                double cpu = (jvm.cpuMillis() - cpuBefore) / seconds;
                return new Figures(f.rows() / seconds, ClaimBenchmark.percentile(f.claims(), 0.50) / 1000,
                        ClaimBenchmark.percentile(f.claims(), 0.99) / 1000, jvm.signIns().refused(), jvm.errors(), cpu);
            }

            @Override
            public void abort() {
                // closing the JVM (the caller's try-with-resources) stops its clients
            }
        };
    }
}
