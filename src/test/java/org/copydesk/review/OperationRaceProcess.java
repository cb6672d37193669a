package org.copydesk.review;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ClaimStrategyKind;

/**
 * A separate JVM for the race test: a few {@link OperationRaceWorker}s and a release service of its
 * own, racing the test's threads on the same database until the test kills it with
 * {@code destroyForcibly}. A real process dies without running any code, which no thread in the
 * test's JVM can imitate.
 *
 * <p>Arguments: jdbc-url user password strategy editor,editor,… . Output lines the test reads:
 * {@code RECORDED request-id} for each decision recorded, {@code STALE-ACCEPTED …} for any stale
 * write the database accepted.
 */
public final class OperationRaceProcess {

    private OperationRaceProcess() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String password = args[2].equals("-") ? "" : args[2];
        ClaimStrategyKind strategy = ClaimStrategyKind.valueOf(args[3]);
        List<String> editors = List.of(args[4].split(","));
        try (Database db = Database.open(url, user, password.toCharArray(), null, DataSources.PoolSize.of(editors.size() + 2),
                Database.SchemaAction.NONE, null)) {
            ReviewSession session = new ReviewSession(db, new ReviewSession.Options(strategy, Duration.ofMillis(150)));
            AtomicBoolean stop = new AtomicBoolean();
            OperationRaceWorker.Counters counters = new OperationRaceWorker.Counters();
            // a second release service beside the test's: sweeps must be safe side by side
            ReleaseService sweeper = session.releaseService(released -> { });
            sweeper.start();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < editors.size(); i++) {
                String intruder = editors.get((i + 1) % editors.size());
                Thread t = new Thread(new OperationRaceWorker(session, editors.get(i), intruder, counters, stop, 10,
                        OperationRaceProcess::say, () -> { }), "race-" + editors.get(i));
                t.start();
                workers.add(t);
            }
            say("STARTED");
            for (Thread t : workers) {
                t.join();
            }
            sweeper.close();
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
