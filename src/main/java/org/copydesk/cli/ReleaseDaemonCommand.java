package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code copydesk release-daemon}: frees expired leases until stopped, for sites that want one process on a server. */
@Command(name = "release-daemon", mixinStandardHelpOptions = true,
        description = "Frees expired leases every few seconds until stopped (Ctrl-C or SIGTERM).")
final class ReleaseDaemonCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Option(names = "--interval", defaultValue = "5s", converter = Durations.class, description = "how often (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--once", description = "run one sweep and exit (for cron)")
    boolean once;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (interval.isZero() || interval.isNegative()) {
            throw Cli.usage(spec, "--interval must be a positive duration, e.g. 5s.");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (ReviewSession session = database.open(2, interval);
             ReleaseService service = session.releaseService(released -> {
                         out.println("Released " + released.size() + " expired lease(s).");
                         out.flush();
                     })) {
            if (once) {
                int n = service.runOnce().size();
                if (n == 0) {
                    out.println("No expired leases.");
                }
                return 0;
            }
            out.println("Releasing expired leases every " + Durations.inWords(interval) + ". Ctrl-C stops.");
            out.flush();
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "stop-release-daemon"));
            service.startEveryInterval();
            stop.await();
        }
        return 0;
    }

}
