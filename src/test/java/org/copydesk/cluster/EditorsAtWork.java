package org.copydesk.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.lease.RetryMetrics;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;

/**
 * Editors working as fast as they can through the review services (claim_articles, then
 * decide_article on each article held), each on the services of its own node, for a while; an
 * optional event (a node killed) happens part-way. Counts what each editor saw.
 *
 * <p>The event comes after a time or after a number of decisions, whichever is first: on a fast
 * machine the editors can empty the desk before a fixed time, and an event after the last article
 * tests nothing (CI once killed the node when every article was decided). The rate is measured up
 * to the last decision, not to the end of the run, for the same reason.
 */
final class EditorsAtWork {

    /** One editor and the services (the node, or the node list) it works through. */
    record Editor(String id, int home, ReviewSession services) {
    }

    /** What the run saw. Decisions after the event are counted per home node. */
    record Outcome(Duration elapsed, int decided, int lost, int refused, List<Throwable> failures, Set<String> requestIds,
                   int[] decidedAfterEventByHome, long deadlocks, long lockWaits, long busy, long reconnects,
                   long transactions) {

        double perSecond() {
            return decided * 1000.0 / Math.max(1, elapsed.toMillis());
        }
    }

    private EditorsAtWork() {
    }

    /** When the optional event happens: after {@code time}, or once {@code decisions} are recorded, whichever is first. */
    record EventAfter(Duration time, int decisions) {
    }

    static Outcome run(List<Editor> editors, Duration length, EventAfter eventAfter, Runnable event) throws InterruptedException {
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Set<String> requestIds = ConcurrentHashMap.newKeySet();
        AtomicInteger decided = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicLong eventAt = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastDecisionAt = new AtomicLong();
        int[] afterEvent = new int[4];
        CountDownLatch done = new CountDownLatch(editors.size());
        long started = System.nanoTime();
        long until = started + length.toNanos();
        for (Editor editor : editors) {
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < until) {
                        for (HeldArticle held : editor.services().queue().claim(editor.id()).articles()) {
                            UUID request = UUID.randomUUID();
                            DecisionOutcome outcome = editor.services().decisions().submit(new DecisionRequest(request,
                                    held.id(), held.lease(), Verdict.APPROVE, ""));
                            if (outcome instanceof DecisionOutcome.Recorded || outcome instanceof DecisionOutcome.AlreadyRecorded) {
                                requestIds.add(request.toString());
                                decided.incrementAndGet();
                                lastDecisionAt.accumulateAndGet(System.nanoTime(), Math::max);
                                if (System.nanoTime() > eventAt.get()) {
                                    synchronized (afterEvent) {
                                        afterEvent[editor.home()]++;
                                    }
                                }
                            } else if (outcome instanceof DecisionOutcome.Lost) {
                                lost.incrementAndGet();
                            } else {
                                refused.incrementAndGet();
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    done.countDown();
                }
            }, "editor-" + editor.id());
            t.setDaemon(true);
            t.start();
        }
        if (event != null) {
            long latest = started + eventAfter.time().toNanos();
            while (System.nanoTime() < latest && decided.get() < eventAfter.decisions()) {
                Thread.sleep(20);
            }
            eventAt.set(System.nanoTime());
            event.run();
        }
        done.await();
        long end = decided.get() > 0 ? lastDecisionAt.get() : System.nanoTime();
        Duration elapsed = Duration.ofNanos(end - started);
        long deadlocks = 0;
        long lockWaits = 0;
        long busy = 0;
        long reconnects = 0;
        long transactions = 0;
        for (ReviewSession s : editors.stream().map(Editor::services).distinct().toList()) {
            RetryMetrics m = s.retryMetrics();
            deadlocks += m.deadlocks();
            lockWaits += m.lockWaitTimeouts();
            busy += m.busyFailures();
            reconnects += m.reconnects();
            transactions += m.attempts();
        }
        return new Outcome(elapsed, decided.get(), lost.get(), refused.get(), List.copyOf(failures), Set.copyOf(requestIds),
                afterEvent.clone(), deadlocks, lockWaits, busy, reconnects, transactions);
    }
}
