package org.copydesk.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The markdown {@link IdleClientBenchmark} writes: per K, the idle clients' cost over the base cell
 * (server CPU, statements and pings per idle client), connections per idle client, the working
 * clients' claim p50 and p99 with their ratio to the working-alone cell and to the smallest K, rows
 * decided per second, the server's memory, sign-ins refused and errors; all cells of one run.
 */
final class IdleClientReport {

    private IdleClientReport() {
    }

    static String render(List<IdleClientBenchmark.Cell> cells, IdleClientBenchmark bench) {
        IdleClientBenchmark.Cell base = cells.get(0);
        IdleClientBenchmark.Cell alone = cells.get(1);
        Duration[] d = bench.durations();
        StringBuilder md = new StringBuilder();
        md.append("Run of ").append(ClaimBenchmark.now()).append(": one embedded MariaDB 11.4 (2 shared cores), ")
                .append(IdleClientBenchmark.ARTICLES).append(" articles on one desk; every client on its own account with the")
                .append(" desktop pool, list watch, presence and release service as the app runs them; idle clients ")
                .append(IdleClientBenchmark.IDLE == DesktopClient.Window.HOLDING
                        ? "at the window holding a full hand, reading (list watch every 3 s, leases renewed every 60 s)"
                        : IdleClientBenchmark.IDLE == DesktopClient.Window.AWAY
                        ? "away from the window (list watch every 30 s, no presence)"
                        : DesktopClient.WATCH_AS_BEFORE ? "at the window (list watch every 3 s however long untouched, presence every 60 s)"
                        : "at the window holding nothing (list watch every 3 s, every 15 s once untouched for a minute;"
                                + " presence every 60 s)")
                .append("; ").append(bench.working()).append(" working clients (Get articles, approve each, again). Idle cells ")
                .append(d[1].toSeconds()).append(" s after ").append(d[0].toSeconds()).append(" s, working cells ")
                .append(d[3].toSeconds()).append(" s after ").append(d[2].toSeconds()).append(" s.\n\n");
        md.append("| cell | server CPU ms/s | idle clients | idle CPU ms/s per idle client | statements /min per idle client"
                + " | pings /min per idle client | connections per idle client | claim p50 ms | claim p99 ms | p99 vs working alone"
                + " | rows/s | server memory MB | errors |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        IdleClientBenchmark.Cell firstK = null;
        for (IdleClientBenchmark.Cell c : cells) {
            boolean working = c.claims().length > 0;
            boolean idleCell = c.idle() > 0 && !working;
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d |%n", c.label(),
                    c.cpuMsPerSecond(), c.idle(),
                    idleCell ? String.format(Locale.ROOT, "%.3f", idleCpuMs(c, base)) : "",
                    idleCell ? String.format(Locale.ROOT, "%.2f", perIdlePerMinute(c, base, "Questions")) : "",
                    idleCell ? String.format(Locale.ROOT, "%.2f", perIdlePerMinute(c, base, "Com_admin_commands")) : "",
                    c.idle() > 0 ? String.format(Locale.ROOT, "%.2f", (double) c.idleConnections() / c.idle()) : "",
                    working ? Long.toString(c.claimPercentileMs(0.50)) : "",
                    working ? Long.toString(c.claimPercentileMs(0.99)) : "",
                    working ? ratio(c.claimPercentileMs(0.99), alone.claimPercentileMs(0.99)) : "",
                    working ? String.format(Locale.ROOT, "%.1f", c.rows() / c.seconds()) : "",
                    c.serverMemoryMb(), c.errors()));
            if (working && c.idle() > 0 && firstK == null) {
                firstK = c;
            }
        }
        for (int i = 1; i < cells.size(); i++) {
            if (cells.get(i).label().contains("(before)")) {
                IdleClientBenchmark.Cell paced = cells.get(i - 1);
                IdleClientBenchmark.Cell unpaced = cells.get(i);
                md.append(String.format(Locale.ROOT, "%nThe paced sweep turn against the turn asked every 5 s by every client, %d idle"
                                + " clients, same run: idle server CPU per idle client %.3f against %.3f ms/s (%s), statements %.2f against"
                                + " %.2f a minute.%n", paced.idle(), idleCpuMs(paced, base), idleCpuMs(unpaced, base),
                        ratio(idleCpuMs(paced, base), idleCpuMs(unpaced, base)), perIdlePerMinute(paced, base, "Questions"),
                        perIdlePerMinute(unpaced, base, "Questions")));
            }
        }
        IdleClientBenchmark.Cell lastK = cells.get(cells.size() - 1);
        md.append(String.format(Locale.ROOT, "%nWorking clients' claim p99 at the largest K (%d clients) against the smallest (%d): %s."
                        + " Sign-ins refused: %d%s.%n",
                lastK.idle() + bench.working(), firstK == null ? 0 : firstK.idle() + bench.working(),
                firstK == null ? "" : ratio(lastK.claimPercentileMs(0.99), firstK.claimPercentileMs(0.99)), bench.refusals().size(),
                bench.refusals().isEmpty() ? "" : " (first: " + bench.refusals().get(0) + ")"));
        return md.toString();
    }

    /** The idle clients' share of the server's CPU over the base cell, per idle client, in ms per second. */
    static double idleCpuMs(IdleClientBenchmark.Cell c, IdleClientBenchmark.Cell base) {
        return (c.cpuMsPerSecond() - base.cpuMsPerSecond()) / c.idle();
    }

    private static double perIdlePerMinute(IdleClientBenchmark.Cell c, IdleClientBenchmark.Cell base, String counter) {
        double cell = c.counters().getOrDefault(counter, 0L) * 60.0 / c.seconds();
        double over = base.counters().getOrDefault(counter, 0L) * 60.0 / base.seconds();
        return (cell - over) / c.idle();
    }

    private static String ratio(double value, double baseline) {
        return baseline == 0 ? "" : String.format(Locale.ROOT, "%.2f×", value / baseline);
    }
}
