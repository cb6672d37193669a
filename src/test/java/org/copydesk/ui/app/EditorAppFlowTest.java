package org.copydesk.ui.app;

import static org.copydesk.testing.FxAwait.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TcpProxy;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.editor.LeaseRow;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;

/**
 * The editor's main flows in the real app (headless, Monocle), against the real database reached
 * through a TCP proxy the test can cut. The FX-thread watchdog runs throughout and fails the test
 * if the FX thread is ever caught waiting on I/O.
 */
@ExtendWith(DatabaseExtension.class)
class EditorAppFlowTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private final FxRobot robot = new FxRobot();
    private TcpProxy proxy;
    private CopydeskApp app;
    private String url;

    EditorAppFlowTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void startApp() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        session.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        session.newsroom().addDesk("sport", "Sport", Duration.ofMinutes(30));
        session.newsroom().addEditor("flow_ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news", "sport"));
        session.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport"));
        session.accounts().createAccount("flow_ann", "flow-ann-pass".toCharArray());
        Fixtures.articles(dsl, "news", 4, 3, -60);

        proxy = new TcpProxy("127.0.0.1", db.endpoint().port());
        url = db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name());
        app = AppUnderTest.start(url, "flow_ann",
                "flow-ann-pass");
        waitFor(10, () -> robot.lookup("#sign-in").tryQuery().isPresent());
    }

    @AfterEach
    void stopApp() throws Exception {
        AppUnderTest.stop(app); // first: the app's release service and pools still use the account
        session.accounts().dropAccount("flow_ann");
        proxy.close();
    }

    private void signInAsAnn() {
        // user name and password come from the settings (as COPYDESK_DB_USER / _PASSWORD would give them)
        assertThat(robot.lookup("#user").queryAs(TextField.class).getText()).isEqualTo("flow_ann");
        robot.clickOn("#sign-in");
        waitFor(10, () -> robot.lookup("#desk-news").tryQuery().map(Node::isVisible).orElse(false));
        robot.clickOn("#start");
        waitFor(10, () -> articleList().getItems().size() == 3);
    }

    private List<String> noticeTexts() {
        return robot.lookup("#notices").lookup((Node n) -> n instanceof Label).queryAllAs(Label.class).stream()
                .map(Label::getText).toList();
    }

    private ListView<?> articleList() {
        return robot.lookup("#articles").queryAs(ListView.class);
    }

    @Test
    void signInGetArticlesReviewAndSubmit() {
        signInAsAnn();
        long first = ((LeaseRow) articleList().getItems().get(0)).id();
        waitFor(5, () -> robot.lookup("#reader-body").queryAs(TextArea.class).getText().equals("Body 0"));
        assertThat(robot.lookup("#reader-title").queryAs(Label.class).getText()).isEqualTo("Article 0");

        robot.clickOn("#verdict-send_back");
        robot.clickOn("#notes").write("Check the second quote");
        robot.clickOn("#submit");

        waitFor(10, () -> articleList().getItems().size() == 2);
        // sent when its few seconds of Undo have passed (EditorViewModel.UNDO_WINDOW)
        waitFor(15, () -> dsl.fetchValue(ARTICLE.ATTEMPTS, ARTICLE.ID.eq(first)) == 1);
        try {
            // the notice is posted with the row's removal, but a loaded machine may show it a frame later
            waitFor(5, () -> noticeTexts().contains("Sent back \u201cArticle 0\u201d."));
        } catch (AssertionError e) {
            throw new AssertionError("notices shown: " + noticeTexts(), e);
        }
    }

    @Test
    void keyboardOnlyReview() {
        signInAsAnn();
        Node list = robot.lookup("#articles").query();
        robot.interact(list::requestFocus);
        robot.press(KeyCode.ALT, KeyCode.DOWN).release(KeyCode.DOWN, KeyCode.ALT);
        waitFor(5, () -> "Article 1".equals(robot.lookup("#reader-title").queryAs(Label.class).getText()));
        long second = ((LeaseRow) articleList().getItems().get(1)).id();

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT1).release(KeyCode.DIGIT1, KeyCode.CONTROL);
        robot.write("Clean copy");
        robot.press(KeyCode.CONTROL, KeyCode.ENTER).release(KeyCode.ENTER, KeyCode.CONTROL);

        waitFor(10, () -> dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(second)) == ArticleStatus.approved);
        robot.press(KeyCode.F5).release(KeyCode.F5);
        waitFor(10, () -> articleList().getItems().size() == 3); // topped up again
        robot.press(KeyCode.F1).release(KeyCode.F1);
        assertThat(robot.lookup("#help-overlay").query().isVisible()).isTrue();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        assertThat(robot.lookup("#help-overlay").query().isVisible()).isFalse();
    }

    @Test
    void aLeaseLostWhileReviewingIsExplainedAndTheNotesStay() {
        signInAsAnn();
        long first = ((LeaseRow) articleList().getItems().get(0)).id();
        robot.clickOn("#notes").write("Half done");
        session.supervision().forceRelease(first, "sue", "Needs a lawyer");

        robot.clickOn("#verdict-approve");
        robot.clickOn("#submit");

        waitFor(10, () -> robot.lookup(n -> n instanceof Label l && l.getText() != null
                && l.getText().contains("Sue Lindqvist took \u201cArticle 0\u201d back")).tryQuery().isPresent());
        assertThat(articleList().getItems()).hasSize(2);
        try {
            waitFor(5, () -> session.drafts().load(first, "flow_ann").map(d -> d.notes().equals("Half done")).orElse(false));
        } catch (AssertionError e) {
            throw new AssertionError("draft is " + session.drafts().load(first, "flow_ann") + "; drafts: "
                    + dsl.selectFrom(REVIEW_DRAFT).fetch(), e);
        }
    }

    @Test
    void signingOutWhileHoldingArticlesAsksAndGivesThemBackByDefault() {
        signInAsAnn();
        robot.clickOn("#notes").write("Back to this tomorrow");
        robot.clickOn("#sign-out");
        waitFor(5, () -> robot.lookup("#leave-question").query().isVisible());
        assertThat(robot.lookup("#leave-title").queryAs(Label.class).getText()).isEqualTo("Give back your 3 articles?");

        robot.press(KeyCode.ENTER).release(KeyCode.ENTER); // giving back is the default

        waitFor(10, () -> robot.lookup("#sign-in").tryQuery().isPresent());
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("flow_ann"))).isZero();
        long first = dsl.fetchValue(ARTICLE.ID, ARTICLE.TITLE.eq("Article 0"));
        waitFor(5, () -> session.drafts().load(first, "flow_ann").map(d -> d.notes().equals("Back to this tomorrow"))
                .orElse(false));
    }

    @Test
    void signingOutWhileAnotherWindowWorksAsTheSamePersonKeepsTheArticles() throws Exception {
        Process otherWindow = new ProcessBuilder("sleep", "120").start(); // a second Copydesk window, as OpenWindows sees it
        try {
            OpenWindows.forCurrentUser(otherWindow.toHandle()).signedIn("flow_ann", url.replaceAll("\\?.*", ""));
            signInAsAnn();
            robot.clickOn("#sign-out");
            waitFor(5, () -> robot.lookup("#leave-question").query().isVisible());
            assertThat(robot.lookup("#leave-title").queryAs(Label.class).getText()).isEqualTo("Close this window?");
            assertThat(robot.lookup("#leave-give-back").query().isVisible()).isFalse();

            robot.press(KeyCode.ENTER).release(KeyCode.ENTER); // the default keeps them

            waitFor(10, () -> robot.lookup("#sign-in").tryQuery().isPresent());
            assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("flow_ann"))).as("the other window's to work on").isEqualTo(3);
        } finally {
            otherWindow.destroy();
        }
    }

    @Test
    void databaseOfflineAndBack() {
        signInAsAnn();
        long first = ((LeaseRow) articleList().getItems().get(0)).id();
        proxy.cut();
        robot.clickOn("#notes").write("Typed offline");

        // one look at the whole offline state: the banner, its words and the disabled reload change in one FX turn
        waitFor(20, () -> robot.lookup("#offline-banner").query().isVisible()
                && robot.lookup("#reload").query().isDisabled()
                && !robot.lookup("#offline-banner").queryAs(Label.class).getText().isEmpty());
        assertThat(robot.lookup("#notes").queryAs(TextArea.class).getText()).isEqualTo("Typed offline");

        proxy.restore();
        waitFor(30, () -> !robot.lookup("#offline-banner").query().isVisible());
        waitFor(10, () -> session.drafts().load(first, "flow_ann").map(d -> d.notes().equals("Typed offline")).orElse(false));
    }


    @Test
    void aFrozenDatabaseShowsTheBannerWithinSecondsWhileTheWindowStaysResponsive() {
        signInAsAnn();
        long first = ((LeaseRow) articleList().getItems().get(0)).id();
        app.watchdog().reset(); // from here on
        proxy.freeze(); // as a server stopped with SIGSTOP: connections open, no answer
        long frozenAt = System.nanoTime();
        robot.clickOn("#notes").write("Typed while frozen");

        waitFor(10, () -> robot.lookup("#offline-banner").query().isVisible()
                && robot.lookup("#reload").query().isDisabled());
        long seconds = (System.nanoTime() - frozenAt) / 1_000_000_000L;
        assertThat(robot.lookup("#offline-banner").queryAs(Label.class).getText()).startsWith("The database is not answering.");
        robot.write(" and more"); // the window still takes typing
        assertThat(robot.lookup("#notes").queryAs(TextArea.class).getText()).isEqualTo("Typed while frozen and more");
        assertThat(robot.lookup("#reload").query().isDisabled()).isTrue();
        assertThat(app.watchdog().maxStallMillis()).as("the FX thread never waited for the frozen server (banner after %d s)", seconds)
                .isLessThan(1_000);

        proxy.thaw();
        waitFor(30, () -> !robot.lookup("#offline-banner").query().isVisible());
        waitFor(5, () -> noticeTexts().stream().anyMatch(t -> t.startsWith("Back online")));
        waitFor(10, () -> session.drafts().load(first, "flow_ann").map(d -> d.notes().equals("Typed while frozen and more"))
                .orElse(false));
    }

    static Database openVia(TcpProxy proxy, TestDatabase db) {
        return Database.open(db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name()),
                db.endpoint().user(), db.endpoint().password().toCharArray(), null, DataSources.PoolSize.of(2),
                Database.SchemaAction.NONE, null);
    }
}
