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
        session.queue().claim("ann"); // a reload refreshes the same leases: a second event each

        var held = dsl.select(ARTICLE.ID, ARTICLE.EXPIRES_AT).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("ann")).fetch();
        assertThat(held).hasSize(5);
        assertThat(held).as("a fraction of a second in the expiries (else this test proves little)")
                .anyMatch(r -> r.value2().getNano() != 0);
        for (var article : held) {
            LocalDateTime lastEvent = dsl.select(LEASE_EVENT.EXPIRES_AT).from(LEASE_EVENT)
                    .where(LEASE_EVENT.RESOURCE.eq("article"), LEASE_EVENT.ROW_KEY.eq(String.valueOf(article.value1())))
                    .orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne(LEASE_EVENT.EXPIRES_AT);
            assertThat(lastEvent).as("article %s", article.value1()).isEqualTo(article.value2());
        }
    }
}
