package org.copydesk.lease;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.ArticleLeases;

/**
 * A separate JVM for the race test: a few {@link RaceWorker}s and a release-service loop of its
 * own, racing the test's threads on the same database until the race test kills it with
 * {@code destroyForcibly} (or the queue runs dry). A real process dies without running any code,
 * which no thread in the test's JVM can imitate.
 *
 * <p>Arguments: jdbc-url user password strategy name threads. Output lines the test reads:
 * {@code STALE-ACCEPTED …} for every stale write the engine accepted.
 */
public final class RaceWorkerProcess {

    private RaceWorkerProcess() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String password = args[2].equals("-") ? "" : args[2];
        ClaimStrategyKind strategy = ClaimStrategyKind.valueOf(args[3]);
        String name = args[4];
        int threads = Integer.parseInt(args[5]);
        try (Database db = Database.open(url, user, password.toCharArray(), null, DataSources.PoolSize.of(threads + 2),
                Database.SchemaAction.NONE, null)) {
            LeaseEngine engine = new LeaseEngine(db.dsl(), ArticleLeases.TABLE, ArticleLeases.EVENTS,
                    LeaseEngine.Options.defaults(db.capabilities().supportsSkipLocked()).withStrategy(strategy));
            AtomicBoolean stop = new AtomicBoolean();
            RaceWorker.Counters counters = new RaceWorker.Counters();
            // A second release service beside the test's: releasers must be safe side by side.
            Thread sweeper = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        engine.releaseExpired(50, 4, name + "-sweeper");
                        Thread.sleep(150);
                    } catch (InterruptedException e) {
                        return;
                    } catch (DatabaseBusyException e) {
                        // retried next round
                    }
                }
            }, name + "-sweeper");
            sweeper.setDaemon(true);
            sweeper.start();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Thread t = new Thread(new RaceWorker(engine, db.dsl(), name + "w" + i, counters, stop, 15,
                        line -> System.out.println(line)), name + "w" + i);
                t.start();
                workers.add(t);
            }
            System.out.println("STARTED " + name);
            for (Thread t : workers) {
                t.join();
            }
            stop.set(true);
            System.out.println("FINISHED " + name + " " + counters);
        }
    }
}
