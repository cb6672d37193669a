package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.review.Stage;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code copydesk stages}: an admin sets up a desk's chain from the command line, as docs/workflow.md shows. */
@ExtendWith(DatabaseExtension.class)
class StagesCommandTest {

    private final DSLContext dsl;
    private final CliRunner cli;

    StagesCommandTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("cat", "Cat", Role.EDITOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 4, 3, -60);
    }

    @Test
    void anAdminSetsUpAChainListsItReordersItAndRemovesAStageSayingWhereItsArticlesGo() {
        assertThat(cli.run("stages", "list", "news").out()).contains("has no stages: each article has one review");

        assertThat(cli.run("stages", "add", "news", "copy", "Copy edit").code()).isZero();
        CliRunner.Run legal = cli.run("stages", "add", "news", "legal", "Legal", "--when-asked", "--takers", "cat", "--lease", "1h");
        assertThat(legal.code()).as(legal.err()).isZero();
        CliRunner.Run signoff = cli.run("stages", "add", "news", "signoff", "Sign-off", "--four-eyes", "--lease", "15m");
        assertThat(signoff.out().strip()).isEqualTo("The chain of news is now: Copy edit → Legal (when asked) → Sign-off (four eyes).");

        String list = cli.run("stages", "list", "news").out();
        assertThat(list).contains("legal", "when asked", "cat", "1h", "signoff", "15m", "the desk's editors");
        List<Stage> chain = ReviewStages.over(dsl).chain("news");
        assertThat(chain).extracting(Stage::id).containsExactly("copy", "legal", "signoff");
        assertThat(chain.get(1).takers()).containsExactly("cat");
        assertThat(dsl.fetchOne("select count(*) from article where stage_id = 'copy'").get(0, Integer.class))
                .as("the first stage took in the desk's articles").isEqualTo(4);

        assertThat(cli.run("stages", "order", "news", "copy,signoff,legal").out()).contains("Copy edit → Sign-off");

        CliRunner.Run refused = cli.run("stages", "remove", "news", "copy");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).startsWith("copydesk: ").contains("Articles are in review at this stage: say which stage")
                .doesNotContain("\n");
        assertThat(ReviewStages.over(dsl).chain("news")).as("nothing removed").hasSize(3);
        CliRunner.Run removed = cli.run("stages", "remove", "news", "copy", "--move-to", "signoff");
        assertThat(removed.code()).as(removed.err()).isZero();
        assertThat(dsl.fetchOne("select count(*) from article where stage_id = 'signoff'").get(0, Integer.class)).isEqualTo(4);
    }

    @Test
    void aMistakeOnTheCommandLineChangesNothing() {
        CliRunner.Run noDesk = cli.run("stages", "list", "sport");
        assertThat(noDesk.code()).isEqualTo(1);
        assertThat(noDesk.err().strip()).isEqualTo("copydesk: There is no desk 'sport'.");
        assertThat(cli.run("stages", "add", "news", "copy", "Copy edit", "--lease", "soon").code()).isEqualTo(2);
        assertThat(ReviewStages.over(dsl).chain("news")).isEmpty();
    }
}
