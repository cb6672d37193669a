package org.copydesk.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code copydesk release-daemon}: frees expired leases until stopped, for sites that want one process on a server. */
@Command(name = "release-daemon",
        description = "Frees expired leases every few seconds until stopped (Ctrl-C or SIGTERM).")
final class ReleaseDaemonCommand extends DatabaseCommand<ReviewSession> {

    @Option(names = "--interval", defaultValue = "5s", converter = Durations.class, description = "how often (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--once", description = "run one sweep and exit (for cron)")
    boolean once;

    ReleaseDaemonCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    void beforeOpening() {
        if (interval.isZero() || interval.isNegative()) {
            throw usage("--interval must be a positive duration, e.g. 5s.");
        }
    }

    /** The session's release service frees expired leases at the daemon's interval. */
    @Override
    ReviewSession open() {
        return DatabaseAccess.work(database, interval);
    }

    @Override
    ExitCode run(ReviewSession session) throws InterruptedException {
        PrintWriter out = out();
        try (ReleaseService service = session.releaseService(released -> {
            out.println("Released " + released.size() + " expired lease(s).");
            out.flush();
        })) {
            if (once) {
                int n = service.runOnce().size();
                if (n == 0) {
                    out.println("No expired leases.");
                }
                return ExitCode.OK;
            }
            out.println("Releasing expired leases every " + Durations.inWords(interval) + ". Ctrl-C stops.");
            out.flush();
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "stop-release-daemon"));
            service.startEveryInterval();
            stop.await();
        }
        return ExitCode.OK;
    }
}
