package org.copydesk.review;

import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.jooq.DSLContext;

/**
 * Replays the event log row by row, in id order (the order the row locks were taken in), and
 * reconstructs each row's hold intervals. Every event must fit the lease the replay says the row
 * has at that point:
 * <ul>
 *   <li>a claim only on a free row (free from the start, or after an ending event: release,
 *       complete, expire, force release), with a token higher than any before;</li>
 *   <li>refresh, renew, extend, release, complete, expire, force release only under the current
 *       owner and token (anything else is a write under a stale lease the engine accepted);</li>
 *   <li>an expire only once the lease's last known expiry has passed on the server's clock, so no
 *       lease was ever ended (and the row handed on) while it was still valid;</li>
 *   <li>a claim that took over a lapsed lease names exactly the lease the expire before it ended.</li>
 * </ul>
 * Together these say that no row was ever held by two owners at once.
 */
public final class LeaseEventAudit {

    /** The history's actions that change a lease; the rest is review history, which the replay skips when asked. */
    public static final Set<String> LEASE_ACTIONS = Stream.of(HistoryAction.CLAIM, HistoryAction.REFRESH, HistoryAction.RENEW,
            HistoryAction.EXTEND, HistoryAction.RELEASE, HistoryAction.EXPIRE, HistoryAction.COMPLETE, HistoryAction.FORCE_RELEASE,
            HistoryAction.REASSIGN).map(HistoryAction::code).collect(Collectors.toUnmodifiableSet());

    /** What the replay found. */
    public record Report(List<String> violations, Map<String, Integer> completesPerRow, long events, long claims,
                  long takeOvers, long sweptExpiries) {
    }

    private static final class RowState {
        String owner;
        Long token;
        LocalDateTime expiresAt;
        long maxToken = 0;
        long lastEventId;
        String lastAction;
        String endedOwner;
        Long endedToken;
        int completes;
        /** The row's events so far, to show with a violation. */
        final List<String> history = new ArrayList<>();
    }

    private LeaseEventAudit() {
    }

    public static Report replay(DSLContext dsl, String resource) {
        return replay(dsl, resource, e -> false, e -> false);
    }

    /**
     * As {@link #replay(DSLContext, String)}, where a complete event for which {@code reopens} holds
     * puts the row back in the queue (a newsroom send-back): it may be claimed again afterwards, and
     * it does not count in {@link Report#completesPerRow()}. Events for which {@code history} holds
     * are not lease changes (the newsroom writes its review history to the same log) and are skipped.
     */
    public static Report replay(DSLContext dsl, String resource, Predicate<LeaseEventRecord> reopens,
                                Predicate<LeaseEventRecord> history) {
        List<String> violations = new ArrayList<>();
        Map<String, RowState> rows = new HashMap<>();
        long events = 0;
        long claims = 0;
        long takeOvers = 0;
        long swept = 0;
        // Thousands of rows make tens of thousands of events: small enough to read at once.
        for (LeaseEventRecord e : events(dsl, resource)) {
            if (history.test(e)) {
                continue;
            }
            events++;
            RowState s = rows.computeIfAbsent(e.getRowKey(), k -> new RowState());
            String where = "row " + e.getRowKey() + " event " + e.getId() + " (" + e.getAction() + " by " + e.getActor()
                    + ", old " + e.getOldOwner() + "/" + e.getOldToken() + ", new " + e.getNewOwner() + "/"
                    + e.getLeaseToken() + "; replay says " + s.owner + "/" + s.token + " after " + s.lastAction
                    + " " + s.lastEventId + "; history " + s.history + ")";
            s.history.add(e.getId() + " " + e.getAction() + " by " + e.getActor() + " at " + e.getOccurredAt() + " "
                    + e.getOldOwner() + "/" + e.getOldToken() + "->" + e.getNewOwner() + "/" + e.getLeaseToken() + " until "
                    + e.getExpiresAt() + (e.getDetail() == null ? "" : " (" + e.getDetail() + ")"));
            switch (e.getAction()) {
                case "claim" -> {
                    claims++;
                    if (s.owner != null) {
                        violations.add("claimed while held: " + where);
                    }
                    if (e.getOldOwner() != null) {
                        takeOvers++;
                        // A take-over is logged as the expire of the lapsed lease, then the claim.
                        if (!"expire".equals(s.lastAction) || !Objects.equals(e.getOldOwner(), s.endedOwner)
                                || !Objects.equals(e.getOldToken(), s.endedToken)) {
                            violations.add("take-over does not follow the expiry of the lease it names: " + where);
                        }
                    }
                    if (e.getLeaseToken() == null || e.getLeaseToken() <= s.maxToken) {
                        violations.add("claim token not above every earlier token " + s.maxToken + ": " + where);
                    }
                    if (s.completes > 0) {
                        violations.add("claimed after completion: " + where);
                    }
                    hold(s, e);
                }
                case "reassign" -> {
                    if (!Objects.equals(e.getOldOwner(), s.owner) || !Objects.equals(e.getOldToken(), s.token)) {
                        violations.add("reassign names another lease than the current one: " + where);
                    }
                    if (e.getLeaseToken() == null || e.getLeaseToken() <= s.maxToken) {
                        violations.add("reassign token not above every earlier token: " + where);
                    }
                    hold(s, e);
                }
                case "refresh", "renew", "extend" -> {
                    requireCurrent(s, e, where, violations);
                    if (!Objects.equals(e.getLeaseToken(), s.token) || !Objects.equals(e.getNewOwner(), s.owner)) {
                        violations.add(e.getAction() + " changed owner or token: " + where);
                    }
                    s.expiresAt = e.getExpiresAt();
                }
                case "expire" -> {
                    requireCurrent(s, e, where, violations);
                    if (s.expiresAt != null && e.getOccurredAt().isBefore(s.expiresAt)) {
                        violations.add("expired at " + e.getOccurredAt() + " before the lease's expiry " + s.expiresAt
                                + ": " + where);
                    }
                    if (e.getOldOwner() != null && !e.getActor().equals(e.getOldOwner()) && e.getDetail() != null
                            && e.getDetail().startsWith("lease expired at")) { // the release service's sweep, not a take-over
                        swept++;
                    }
                    free(s);
                }
                case "release", "force_release" -> {
                    requireCurrent(s, e, where, violations);
                    free(s);
                }
                case "complete" -> {
                    requireCurrent(s, e, where, violations);
                    if (!reopens.test(e)) {
                        s.completes++;
                    }
                    free(s);
                }
                default -> violations.add("unknown action: " + where);
            }
            s.endedOwner = e.getOldOwner();
            s.endedToken = e.getOldToken();
            s.lastAction = e.getAction();
            s.lastEventId = e.getId();
        }
        Map<String, Integer> completes = new HashMap<>();
        rows.forEach((k, s) -> completes.put(k, s.completes));
        return new Report(violations, completes, events, claims, takeOvers, swept);
    }

    /**
     * The resource's events in id order, with each editor's refresh row (a reload: one row listing
     * every lease it refreshed, {@link RefreshedLeases}) read as one refresh event per lease listed,
     * with the row's id, time and actor. Refresh rows an older version wrote per article are the
     * resource's own and read as they are.
     */
    private static List<LeaseEventRecord> events(DSLContext dsl, String resource) {
        List<LeaseEventRecord> events = new ArrayList<>();
        for (LeaseEventRecord e : dsl.selectFrom(LEASE_EVENT).where(LEASE_EVENT.RESOURCE.eq(resource)
                        .or(LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE).and(LEASE_EVENT.ACTION.eq(HistoryAction.REFRESH.code()))))
                .orderBy(LEASE_EVENT.ID.asc()).fetch()) {
            if (!e.getResource().equals(RefreshedLeases.RESOURCE)) {
                events.add(e);
                continue;
            }
            for (RefreshedLeases.Refreshed r : RefreshedLeases.parse(e.getDetail())) {
                LeaseEventRecord one = e.copy();
                one.setId(e.getId());
                one.setResource(resource);
                one.setRowKey(Long.toString(r.articleId()));
                one.setOldToken(r.token());
                one.setLeaseToken(r.token());
                one.setExpiresAt(r.expiresAt());
                one.setDetail(null);
                events.add(one);
            }
        }
        return events;
    }

    /** The event acts on the lease the row has now: same owner, same token, and the row is held. */
    private static void requireCurrent(RowState s, LeaseEventRecord e, String where, List<String> violations) {
        if (s.owner == null) {
            violations.add(e.getAction() + " on a free row: " + where);
        } else if (!s.owner.equals(e.getOldOwner()) || !s.token.equals(e.getOldToken())) {
            violations.add(e.getAction() + " under a lease that is not the current one (stale write accepted): " + where);
        }
    }

    private static void hold(RowState s, LeaseEventRecord e) {
        s.owner = e.getNewOwner();
        s.token = e.getLeaseToken();
        s.expiresAt = e.getExpiresAt();
        if (s.token != null) {
            s.maxToken = Math.max(s.maxToken, s.token);
        }
    }

    private static void free(RowState s) {
        s.owner = null;
        s.token = null;
        s.expiresAt = null;
    }
}
