package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.ZoneId;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import org.copydesk.review.AuditLog;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;

/**
 * The Audit tab on screen (headless, Monocle): a morning of heartbeats reads as one line per lease
 * with titles and names, each renewal only when ticked; words of a title find the article and a
 * line opens its history; the "anyone" button takes no room until a person is chosen.
 */
@ExtendWith(DatabaseExtension.class)
class AuditPageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private DashboardOnScreen screen;
    private List<Long> ids;

    AuditPageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        Editor sue = NewsroomCast.on(services, dsl).desks("news").ann("news").bob("news").sue("news");
        ids = Fixtures.articles(dsl, "news", 4, 3, -60);
        dsl.update(ARTICLE).set(ARTICLE.TITLE, "Bus strike called off").where(ARTICLE.ID.eq(ids.get(0))).execute();
        services.queue().claim("ann"); // Articles 0, 1, 2
        services.queue().claim("bob"); // Article 3
        List<HeldArticle> anns = services.queue().held("ann");
        for (int i = 0; i < 12; i++) {
            services.queue().renew("ann", anns);
            services.queue().renew("bob", services.queue().held("bob"));
        }
        services.supervision().forceRelease(ids.get(1), "sue", "Legal reads it first");
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), sue,
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        screen = DashboardOnScreen.show(model, DashboardTab.AUDIT);
    }

    @AfterEach
    void close() throws Exception {
        screen.close();
    }

    private static void waitFor(BooleanSupplier condition) {
        FxAwait.waitFor(10, condition);
    }

    @SuppressWarnings("unchecked")
    private TableView<AuditLog.Entry> audit() {
        return robot.lookup("#audit").queryAs(TableView.class);
    }

    private boolean cellSays(String tableId, String text) {
        return robot.lookup(tableId).lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).tryQuery().isPresent();
    }

    @Test
    void renewalsAreOneLinePerLeaseUntilEachRenewalIsTicked() {
        waitFor(() -> audit().getItems().size() == 4 + 4 + 1); // four claims, four folded runs, one force release
        assertThat(robot.lookup("#audit-summary").queryAs(Label.class).getText()).isEqualTo("9 events (48 renewals folded)");
        assertThat(cellSays("#audit", "Bus strike called off")).as("titles beside the numbers").isTrue();
        assertThat(cellSays("#audit", "renewed 12 times")).isTrue();
        assertThat(cellSays("#audit", "Ann Kowalski \u2192 \u2014")).as("the force release, by name").isTrue();

        robot.clickOn("#audit-each-renewal");
        waitFor(() -> audit().getItems().size() == 48 + 4 + 1);
        robot.clickOn("#audit-each-renewal");
        waitFor(() -> audit().getItems().size() == 9);
    }

    @Test
    @SuppressWarnings("unchecked")
    void wordsOfATitleFindTheArticleAndALineOpensItsHistory() {
        waitFor(() -> audit().getItems().size() == 9);
        robot.clickOn("#audit-article").write("bus strike");
        robot.clickOn("#audit-search");
        waitFor(() -> audit().getItems().size() == 2
                && audit().getItems().stream().allMatch(e -> e.articleId().equals(ids.get(0))));

        robot.clickOn(robot.lookup("#audit").lookup((Node n) -> n instanceof TableCell<?, ?> c
                && "renewed 12 times".equals(c.getText())).<Node>query());
        waitFor(() -> robot.lookup("#history-title").queryAs(Label.class).getText().contains("Bus strike called off"));
        TableView<HistoryEntry> history = robot.lookup("#article-history").queryAs(TableView.class);
        waitFor(() -> !history.getItems().isEmpty());
        assertThat(history.getItems().get(0).action()).isEqualTo("claim");
        assertThat(history.getItems()).extracting(HistoryEntry::actor).containsOnly("ann");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theAnyoneButtonTakesNoRoomUntilAPersonIsChosen() {
        waitFor(() -> audit().getItems().size() == 9);
        Button anyone = robot.lookup("#audit-anyone").queryAs(Button.class);
        assertThat(anyone.isManaged()).isFalse();
        ComboBox<Editor> person = robot.lookup("#audit-person").queryAs(ComboBox.class);
        // choosing from a combo's popup window is unreliable headless; pick the item as the combo would
        robot.interact(() -> person.setValue(person.getItems().stream().filter(e -> e.id().equals("bob")).findFirst().orElseThrow()));
        waitFor(() -> audit().getItems().size() == 2); // Bob's claim and his folded renewals
        assertThat(anyone.isManaged()).isTrue();

        robot.clickOn(anyone);
        waitFor(() -> audit().getItems().size() == 9);
        assertThat(person.getValue()).isNull();
        assertThat(anyone.isManaged()).isFalse();
    }
}
