package org.copydesk.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The markdown {@link EditorFeelBenchmark} writes: per thing the editor does, p50 and p99 alone and in
 * each loaded phase with their ratios to alone (same run), then per phase what the FX thread, the
 * server and the load alongside did, so a reader sees the load was there.
 */
final class EditorFeelReport {

    private EditorFeelReport() {
    }

    static String render(List<EditorFeelBenchmark.Phase> phases, double idlePulsesPerSecond) {
        EditorFeelBenchmark.Phase alone = phases.get(0);
        List<EditorFeelBenchmark.Phase> loaded = phases.subList(1, phases.size());
        StringBuilder md = new StringBuilder();
        md.append("Run of ").append(ClaimBenchmark.now()).append(": ").append(EditorFeelBenchmark.REPETITIONS)
                .append(" repetitions per phase (").append(alone.f5().size()).append(" F5, ").append(alone.next().size())
                .append(" Ctrl+Enter each) after ").append(EditorFeelBenchmark.WARMUP).append(" unmeasured; ")
                .append(String.format(Locale.ROOT, "%,d", EditorFeelBenchmark.ARTICLES)).append(" articles on one desk; ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores.\n\n");
        md.append("| what the editor does (ms) | alone p50 | alone p99 |");
        StringBuilder rule = new StringBuilder("|---|---:|---:|");
        for (EditorFeelBenchmark.Phase p : loaded) {
            md.append(" ").append(p.label()).append(": p50 | p99 | ratio p50 | ratio p99 |");
            rule.append("---:|---:|---:|---:|");
        }
        md.append('\n').append(rule).append('\n');
        row(md, "F5 → 5 new articles drawn in the list", phases, EditorFeelBenchmark.Phase::f5, WindowStopwatch.Sample::shownNanos);
        row(md, "  … of which until the claim's answer reached the FX thread", phases, EditorFeelBenchmark.Phase::f5,
                WindowStopwatch.Sample::arrivedNanos);
        row(md, "Ctrl+Enter → next article's text shown in the reader", phases, EditorFeelBenchmark.Phase::next,
                WindowStopwatch.Sample::shownNanos);
        row(md, "  … of which until the article's text reached the FX thread", phases, EditorFeelBenchmark.Phase::next,
                WindowStopwatch.Sample::arrivedNanos);
        md.append("\n| phase | seconds | FX thread: longest stall | stalls over 50 ms | pulses /s | server CPU ms/s"
                        + " | the load: rows claimed-and-decided /s | its claim p50 / p99 | sign-ins refused | errors"
                        + " | the load's own JVM: CPU ms/s | load average before → after |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (EditorFeelBenchmark.Phase p : phases) {
            Alongside.Figures f = p.load();
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %d ms | %d | %.1f | %.0f | %s | %s | %s | %s | %s | %s → %s |%n", p.label(),
                    p.seconds(), p.maxStallMillis(), p.stallsOver50(), p.pulsesPerSecond(), p.serverCpuMsPerSecond(),
                    f == null ? "—" : String.format(Locale.ROOT, "%.0f", f.rowsPerSecond()),
                    f == null ? "—" : String.format(Locale.ROOT, "%.1f / %.1f ms", f.claimP50Micros() / 1000.0,
                            f.claimP99Micros() / 1000.0),
                    count(f == null ? -1 : f.refused()), count(f == null ? -1 : f.errors()),
                    f == null || f.jvmCpuMsPerSecond() < 0 ? "— (the window's JVM)" : String.format(Locale.ROOT, "%.0f",
                            f.jvmCpuMsPerSecond()),
                    p.loadAverageBefore(), p.loadAverageAfter()));
        }
        md.append(String.format(Locale.ROOT, "%nWhile the editor reads (5 articles held, nothing pressed, nobody else working) "
                + "the window lays itself out %.1f times a second.%n", idlePulsesPerSecond));
        return md.toString();
    }

    private static String count(long n) {
        return n < 0 ? "—" : Long.toString(n);
    }

    private static void row(StringBuilder md, String what, List<EditorFeelBenchmark.Phase> phases,
                            Function<EditorFeelBenchmark.Phase, List<WindowStopwatch.Sample>> samples,
                            ToLongFunction<WindowStopwatch.Sample> f) {
        double a50 = EditorFeelBenchmark.ms(samples.apply(phases.get(0)), f, 0.5);
        double a99 = EditorFeelBenchmark.ms(samples.apply(phases.get(0)), f, 0.99);
        md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f |", what, a50, a99));
        for (EditorFeelBenchmark.Phase p : phases.subList(1, phases.size())) {
            double b50 = EditorFeelBenchmark.ms(samples.apply(p), f, 0.5);
            double b99 = EditorFeelBenchmark.ms(samples.apply(p), f, 0.99);
            md.append(String.format(Locale.ROOT, " %.1f | %.1f | %.2f× | %.2f× |", b50, b99, b50 / a50, b99 / a99));
        }
        md.append('\n');
    }
}
