package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A supervisor's routine acts (taking an article back, giving it to someone else) reach the editor
 * as news that fades after a few seconds, not as red errors that stay all day (seen: still there
 * 18 minutes later, taking room from the article). A fault of her own work (a lease that ran out
 * under her) still stays until she closes it.
 */
@ExtendWith(DatabaseExtension.class)
class RoutineNoticesFadeTest {

    private static final Duration LIFETIME = Duration.ofSeconds(8);
    private static final EditorViewModel.Settings FAST = new EditorViewModel.Settings(Duration.ofSeconds(1),
            Duration.ofSeconds(60), Duration.ofMinutes(10), Duration.ofMinutes(2), Duration.ofMillis(800),
            Duration.ofSeconds(1), Duration.ofSeconds(8), LIFETIME);

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ManualTicker ticker = new ManualTicker();
    private EditorViewModel model;

    RoutineNoticesFadeTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void annHoldsThree() {
        Editor ann = EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        session.newsroom().addEditor("bob", "Bob Marsh", org.copydesk.review.Role.EDITOR, 3, List.of("news"));
        Fixtures.articles(dsl, "news", 3, 3, -60);
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news"), FAST, ZoneId.of("UTC"));
        model.start();
        assertThat(model.articles()).hasSize(3);
    }

    @AfterEach
    void close() {
        model.close();
    }

    private Notice noticeStartingWith(String words) {
        return model.notices().stream().filter(n -> n.text().startsWith(words)).findFirst().orElse(null);
    }

    @Test
    void aSupervisorsActsAreNewsThatFades() {
        long first = model.articles().get(0).id();
        long second = model.articles().get(1).id();
        session.supervision().forceRelease(first, "sue", "Legal first");
        session.supervision().reassign(second, "bob", "sue", false, "Bob covers this");
        ticker.advance(Duration.ofSeconds(4)); // the list watch finds out

        Notice tookBack = noticeStartingWith("Sue Lindqvist took");
        Notice gave = noticeStartingWith("Sue Lindqvist gave");
        assertThat(tookBack).as("notices: %s", model.notices()).isNotNull();
        assertThat(gave).isNotNull();
        assertThat(List.of(tookBack.kind(), gave.kind())).as("news, not errors").containsOnly(Notice.Kind.INFO);

        ticker.advance(LIFETIME.plusSeconds(2));

        assertThat(model.notices()).as("faded").doesNotContain(tookBack, gave);
    }

    @Test
    void aLeaseThatRanOutUnderHerStaysUntilClosed() {
        long first = model.articles().get(0).id();
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, "bob").where(ARTICLE.ID.eq(first)).execute(); // taken under her
        ticker.advance(Duration.ofSeconds(4));
        Notice taken = model.notices().stream().filter(n -> n.kind() == Notice.Kind.ERROR).findFirst().orElse(null);
        assertThat(taken).as("notices: %s", model.notices()).isNotNull();

        ticker.advance(LIFETIME.multipliedBy(3));

        assertThat(model.notices()).as("a fault stays").contains(taken);
        model.dismiss(taken);
        assertThat(model.notices()).doesNotContain(taken);
    }
}
