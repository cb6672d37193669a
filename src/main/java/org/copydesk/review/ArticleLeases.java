package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.util.List;
import org.copydesk.lease.ClaimOrder;
import org.copydesk.lease.EventLog;
import org.copydesk.lease.LeaseTable;

/**
 * The article table and the event table as the lease engine sees them. The claim order matches
 * the index {@code ix_article_claim (status, priority, queue_lane, available_at, id)}.
 */
public final class ArticleLeases {

    /** Name written to the event log for article leases. */
    public static final String RESOURCE = "article";

    public static final LeaseTable TABLE = new LeaseTable(ARTICLE, RESOURCE, List.of(ARTICLE.ID), ARTICLE.LOCKED_BY,
            ARTICLE.EXPIRES_AT, ARTICLE.LEASE_TOKEN, ARTICLE.QUEUE_LANE, ARTICLE.CLAIMED_AT, ARTICLE.RENEWALS);

    public static final EventLog EVENTS = new EventLog(LEASE_EVENT, LEASE_EVENT.ID, LEASE_EVENT.OCCURRED_AT,
            LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, LEASE_EVENT.ACTION, LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER,
            LEASE_EVENT.NEW_OWNER, LEASE_EVENT.OLD_TOKEN, LEASE_EVENT.LEASE_TOKEN, LEASE_EVENT.EXPIRES_AT,
            LEASE_EVENT.DETAIL);

    /** Most urgent first; then returning work; then oldest available; then id for a stable order. */
    public static final ClaimOrder ORDER = new ClaimOrder(List.of(ARTICLE.PRIORITY.asc()),
            List.of(ARTICLE.AVAILABLE_AT.asc(), ARTICLE.ID.asc()));

    private ArticleLeases() {
    }
}
