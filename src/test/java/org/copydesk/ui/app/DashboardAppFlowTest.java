package org.copydesk.ui.app;

import static org.copydesk.testing.FxAwait.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.editor.EditorViewModel;
import org.copydesk.ui.supervisor.HolderRow;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;

/**
 * The supervisor's flows in the real app (headless, Monocle): Sue signs in straight to the
 * dashboard (her own window claims nothing until she asks) and force-releases, reassigns and requeues. The holder's side is Ann's editor
 * view model on the same database, which must tell her in plain words. The FX-thread watchdog
 * runs throughout and fails the test if the FX thread is ever caught waiting on I/O.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardAppFlowTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private final FxRobot robot = new FxRobot();
    private CopydeskApp app;

    DashboardAppFlowTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void startApp() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        session.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        session.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        session.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 1, List.of("news"));
        session.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 2, List.of("news"));
        Fixtures.articles(dsl, "news", 8, 3, -60);
        session.queue().claim("ann"); // Article 0, 1, 2
        session.queue().claim("dan"); // Article 3: Dan is full
        session.accounts().createAccount("ann", "ann-flow-pass".toCharArray());
        session.accounts().createAccount("sue", "sue-flow-pass".toCharArray());

        app = AppUnderTest.start(db.endpoint().accountUrl(db.name()), null, null);
        waitFor(10, () -> robot.lookup("#sign-in").tryQuery().isPresent());
    }

    @AfterEach
    void stopApp() throws Exception {
        AppUnderTest.stop(app); // first: the app's release service and pools still use these accounts
        session.accounts().dropAccount("ann");
        session.accounts().dropAccount("sue");
    }

    /** Signs in with the person's own database account: with one desk and no stages, straight to their articles. */
    private void signInAsEditor(String id) {
        enterAccount(id);
        waitFor(10, () -> robot.lookup("#articles").tryQuery().isPresent());
        assertThat(robot.lookup("#start").tryQuery().map(Node::isVisible).orElse(false)).as("not asked for desks").isFalse();
    }

    private void enterAccount(String id) {
        robot.interact(() -> {
            robot.lookup("#user").queryAs(TextField.class).setText(id);
            robot.lookup("#password").queryAs(TextField.class).setText(id + "-flow-pass");
        });
        robot.clickOn("#sign-in");
    }

    /** Sue signs in: no desks to choose, the dashboard opens by itself and her window claims nothing. */
    @SuppressWarnings("unchecked")
    private TableView<HolderRow> openDashboard() {
        enterAccount("sue");
        waitFor(10, () -> robot.lookup("#holders").tryQuery().isPresent());
        TableView<HolderRow> holders = robot.lookup("#holders").queryAs(TableView.class);
        waitFor(10, () -> holders.getItems().size() == 4); // Ann 3, Dan 1
        return holders;
    }

    @Test
    void aSupervisorSignsInStraightToTheDashboardAndTakesWorkOnlyWhenSheChooses() throws Exception {
        TableView<HolderRow> holders = openDashboard();
        assertThat(robot.lookup("#articles").tryQuery()).as("her own window is open behind it").isPresent();
        Thread.sleep(1500); // a claim on sign-in would have shown by now
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sue"))).isZero();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("sue").and(LEASE_EVENT.ACTION.eq("claim")))).isZero();

        robot.interact(() -> robot.lookup("#reload").queryAs(javafx.scene.control.Button.class).fire()); // Get articles
        waitFor(10, () -> dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sue")) == 2);
        waitFor(10, () -> holders.getItems().size() == 6);
    }

    private Node cell(String tableId, String text) {
        return robot.lookup(tableId).lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).query();
    }

    @Test
    void forceReleaseTakesTheArticleBackAndTheHolderIsTold() {
        ManualTicker annsClock = new ManualTicker();
        EditorViewModel ann = new EditorViewModel(session, TaskExecutor.sameThread(), annsClock,
                session.newsroom().requireEditor("ann"), List.of("news"), EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        ann.start();
        assertThat(ann.articles()).hasSize(3);
        TableView<HolderRow> holders = openDashboard();

        robot.clickOn(cell("#holders", "Article 0"));
        robot.clickOn("#reason").write("Legal must read it first");
        robot.clickOn("#force-release");
        waitFor(5, () -> robot.lookup("#action-question").queryAs(Label.class).getText()
                .equals("Take \u201cArticle 0\u201d back from Ann Kowalski?"));
        robot.clickOn("#confirm-action");

        waitFor(10, () -> holders.getItems().size() == 3
                && holders.getItems().stream().noneMatch(r -> r.title().equals("Article 0")));
        waitFor(5, () -> robot.lookup(n -> n instanceof Label l && "Took \u201cArticle 0\u201d back from Ann Kowalski."
                .equals(l.getText())).tryQuery().isPresent());
        assertThat(dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("force_release")).fetchOne().intoList())
                .containsExactly("sue", "ann", "Legal must read it first");

        ann.activity();
        annsClock.advance(Duration.ofSeconds(4)); // Ann's list watch finds out (news: it fades after its lifetime)
        assertThat(ann.articles()).extracting(r -> r.article().title()).containsExactly("Article 1", "Article 2");
        assertThat(ann.notices()).extracting(Notice::text).contains("Sue Lindqvist took \u201cArticle 0\u201d back: "
                + "\u201cLegal must read it first\u201d. Your notes go with it to whoever reviews it next.");
        ann.close();
    }

    @Test
    void theRowsGoByEditorUntilAColumnIsChosenAndAgainReverses() {
        TableView<HolderRow> holders = openDashboard();
        List<String> aToZ = List.of("Ann Kowalski", "Ann Kowalski", "Ann Kowalski", "Dan Ito");
        assertThat(holders.getItems().stream().map(HolderRow::editorName).toList()).isEqualTo(aToZ);
        assertThat(robot.lookup("#holders-order").queryAs(Label.class).getText()).isEqualTo("By editor, A to Z");
        assertThat(holders.getSortOrder()).extracting(c -> c.getId()).as("the header shows it").containsExactly("col-editor");

        robot.clickOn("#col-editor");
        waitFor(5, () -> holders.getItems().get(0).editorName().equals("Dan Ito")
                && holders.getItems().get(3).editorName().equals("Ann Kowalski"));
        assertThat(robot.lookup("#holders-order").queryAs(Label.class).getText()).isEqualTo("By editor, Z to A");

        robot.clickOn("#col-time-left");
        waitFor(5, () -> robot.lookup("#holders-order").queryAs(Label.class).getText()
                .equals("By time left, soonest to run out first"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void reassignWarnsAboutCapacityAndGoesAheadWhenConfirmed() {
        TableView<HolderRow> holders = openDashboard();
        long article1 = dsl.fetchValue(ARTICLE.ID, ARTICLE.TITLE.eq("Article 1"));

        robot.clickOn(cell("#holders", "Article 1"));
        ComboBox<Editor> to = robot.lookup("#reassign-to").queryAs(ComboBox.class);
        waitFor(5, () -> to.getItems().stream().anyMatch(e -> e.id().equals("dan")));
        // choosing from a combo's popup window is unreliable headless; pick the item as the combo would
        robot.interact(() -> to.setValue(to.getItems().stream().filter(e -> e.id().equals("dan")).findFirst().orElseThrow()));
        robot.clickOn("#reassign");
        waitFor(5, () -> robot.lookup("#action-question").queryAs(Label.class).getText().startsWith("Give \u201cArticle 1\u201d to Dan Ito?"));
        robot.clickOn("#confirm-action");

        waitFor(10, () -> robot.lookup("#capacity-warning").query().getParent().isVisible()
                && robot.lookup("#capacity-warning").queryAs(Label.class).getText().startsWith("Dan Ito already holds 1 of 1"));
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(article1))).isEqualTo("ann");
        robot.clickOn("#reassign-anyway");

        waitFor(10, () -> "dan".equals(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(article1))));
        waitFor(10, () -> holders.getItems().stream().anyMatch(r -> r.id() == article1 && r.editorId().equals("dan")));
        assertThat(robot.lookup("#capacity-warning").query().getParent().isVisible()).isFalse();
        assertThat(dsl.fetchValue(LEASE_EVENT.ACTOR, LEASE_EVENT.ACTION.eq("reassign"))).isEqualTo("sue");
    }

    @Test
    void aQuarantinedArticleIsCorrectedAndRequeued() {
        long article = dsl.fetchValue(ARTICLE.ID, ARTICLE.TITLE.eq("Article 7"));
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.quarantined).set(ARTICLE.TITLE, "Artcle 7 ???")
                .set(ARTICLE.DECISION_NOTE, "Garbled title").where(ARTICLE.ID.eq(article)).execute();
        openDashboard();

        robot.clickOn(robot.lookup((Node n) -> n instanceof Label l && "Quarantine".equals(l.getText())).<Node>query());
        waitFor(10, () -> robot.lookup("#quarantined").queryAs(TableView.class).getItems().size() == 1);
        robot.clickOn(cell("#quarantined", "Artcle 7 ???"));
        waitFor(5, () -> "Artcle 7 ???".equals(robot.lookup("#corrected-title").queryAs(TextField.class).getText()));
        robot.interact(() -> robot.lookup("#corrected-title").queryAs(TextField.class).clear());
        robot.clickOn("#corrected-title").write("Article 7, title fixed");
        robot.clickOn("#requeue-article");

        waitFor(10, () -> dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(article)) == ArticleStatus.queued);
        assertThat(dsl.fetchValue(ARTICLE.TITLE, ARTICLE.ID.eq(article))).isEqualTo("Article 7, title fixed");
        waitFor(10, () -> robot.lookup("#quarantined").queryAs(TableView.class).getItems().isEmpty());
        assertThat(session.history().of(article)).last().satisfies(h -> {
            assertThat(h.action()).isEqualTo("requeue");
            assertThat(h.actor()).isEqualTo("sue");
        });
    }

    @Test
    void editorsSeeNoDashboardButton() {
        signInAsEditor("ann");
        assertThat(robot.lookup("#open-dashboard").tryQuery()).isEmpty();
    }

}
