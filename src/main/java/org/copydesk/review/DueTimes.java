package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;

/**
 * When articles are due (docs/deadlines.md): a supervisor's change of a due time, through the
 * database's {@code set_due_time} (which checks the role, wants a reason and writes the old and new
 * time in the history), and what is due soon. Times are instants: the database keeps them in UTC on
 * its own clock, and whoever shows them converts them to the reader's time zone. How much time is
 * left is measured against the server's time read with the rows, never the computer's clock.
 */
public final class DueTimes {

    /** What {@code set_due_time} did: the old and the new due time (null: none), and whether the new one has passed. */
    public record DueChange(long articleId, Instant oldDueAt, Instant dueAt, boolean late, Instant serverNow) {
    }

    /** An article in review with a due time, as the due list shows it. */
    public record DueArticle(long id, String externalId, String desk, String stage, String title, int priority,
                             String status, String heldBy, Instant dueAt, Instant serverNow) {

        /** Time left until it is due on the server's clock; negative once late. */
        public Duration left() {
            return Duration.between(serverNow, dueAt);
        }

        public boolean late() {
            return !dueAt.isAfter(serverNow);
        }
    }

    /** The statuses of an article still in review (not yet approved or rejected). */
    static final List<ArticleStatus> IN_REVIEW = List.of(ArticleStatus.queued, ArticleStatus.awaiting_writer,
            ArticleStatus.quarantined);
    private static final DateTimeFormatter UTC_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final DSLContext dsl;
    private final DatabaseOperations operations;
    private final String sessionUser;

    DueTimes(DSLContext dsl, DatabaseOperations operations, String sessionUser) {
        this.dsl = dsl;
        this.operations = operations;
        this.sessionUser = sessionUser;
    }

    /** Over {@code dsl} as its signed-in account, with Copydesk's default retries (tools and tests). */
    public static DueTimes over(DSLContext dsl) {
        return new DueTimes(dsl, DatabaseOperations.withDefaultRetries(dsl), null);
    }

    /**
     * Sets (or with {@code dueAt} null clears) the article's due time; the reason is required and goes
     * into its history. A time already past is taken: the article is late at once.
     */
    public DueChange set(String supervisor, long articleId, Instant dueAt, String reason) {
        String as = supervisor == null || supervisor.equals(sessionUser) ? null : supervisor;
        // as UTC text into a DATETIME parameter: no driver or session time zone converts it on the way
        String due = dueAt == null ? null : UTC_TEXT.format(dueAt.atOffset(ZoneOffset.UTC));
        Record r = operations.fetch(Operation.SET_DUE_TIME, as, articleId, due, reason).get(0);
        return new DueChange(articleId, instant(r.get("old_due_at", LocalDateTime.class)),
                instant(r.get("due_at", LocalDateTime.class)), Integer.valueOf(1).equals(r.get("late", Integer.class)),
                instant(r.get("server_now", LocalDateTime.class)));
    }

    /**
     * The articles in review due within {@code within} from now (the late ones included), earliest
     * first, on one desk or (desk null) every desk.
     */
    public List<DueArticle> upcoming(String desk, Duration within) {
        Field<LocalDateTime> now = ServerClock.now().as("server_now");
        Condition where = ARTICLE.STATUS.in(IN_REVIEW).and(ARTICLE.DUE_AT.le(ServerClock.nowPlus(within)));
        if (desk != null) {
            where = where.and(ARTICLE.DESK_ID.eq(desk));
        }
        return dsl.select(ARTICLE.ID, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.STAGE_ID, ARTICLE.TITLE, ARTICLE.PRIORITY,
                        ARTICLE.STATUS, ARTICLE.LOCKED_BY, ARTICLE.EXPIRES_AT, ARTICLE.DUE_AT, now)
                .from(ARTICLE).where(where).orderBy(ARTICLE.DUE_AT, ARTICLE.ID)
                .fetch(r -> {
                    LocalDateTime serverNow = r.get(now);
                    boolean held = r.get(ARTICLE.LOCKED_BY) != null && r.get(ARTICLE.EXPIRES_AT).isAfter(serverNow);
                    return new DueArticle(r.get(ARTICLE.ID), r.get(ARTICLE.EXTERNAL_ID), r.get(ARTICLE.DESK_ID),
                            r.get(ARTICLE.STAGE_ID), r.get(ARTICLE.TITLE), r.get(ARTICLE.PRIORITY), r.get(ARTICLE.STATUS).getLiteral(),
                            held ? r.get(ARTICLE.LOCKED_BY) : null, instant(r.get(ARTICLE.DUE_AT)), instant(serverNow));
                });
    }

    /** The article's due time, or null when it has none or does not exist. */
    public Instant of(long articleId) {
        return instant(dsl.select(ARTICLE.DUE_AT).from(ARTICLE).where(ARTICLE.ID.eq(articleId)).fetchOne(ARTICLE.DUE_AT));
    }

    /** A UTC wall-clock time the database wrote, as an instant (null stays null). */
    static Instant instant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }
}
