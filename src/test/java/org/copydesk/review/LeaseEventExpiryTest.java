package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lease history says exactly what the article rows say: each held article's last lease event
 * carries the article's expiry to the microsecond, so an audit replaying the log sees the real
 * leases. (On MariaDB 10.x the events once lost their fractions of a second; see
 * {@code FractionalSecondsTest}.)
 */
@ExtendWith(DatabaseExtension.class)
class LeaseEventExpiryTest {

    private final DSLContext dsl;
    private final ReviewSession session;

    LeaseEventExpiryTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @Test
    void eachHeldArticlesLastEventHasTheArticlesExpiry() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann Kowalski", Role.EDITOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 5, 3, -60);

        session.queue().claim("ann");
        session.queue().claim("ann"); // a reload refreshes the same leases: one event for them all

        var held = dsl.select(ARTICLE.ID, ARTICLE.EXPIRES_AT).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("ann")).fetch();
        assertThat(held).hasSize(5);
        assertThat(held).as("a fraction of a second in the expiries (else this test proves little)")
                .anyMatch(r -> r.value2().getNano() != 0);
        // the reload's event is the editor's one row, listing each lease with its new end (RefreshedLeases)
        String reload = dsl.select(LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE), LEASE_EVENT.ROW_KEY.eq("ann"))
                .orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne(LEASE_EVENT.DETAIL);
        List<RefreshedLeases.Refreshed> listed = RefreshedLeases.parse(reload);
        for (var article : held) {
            LocalDateTime lastEvent = listed.stream().filter(l -> l.articleId() == article.value1()).findFirst().orElseThrow().expiresAt();
            assertThat(lastEvent).as("article %s", article.value1()).isEqualTo(article.value2());
        }
    }
}
