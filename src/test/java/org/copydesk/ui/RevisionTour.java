package org.copydesk.ui;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.testing.Await.waitForOnFxThread;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneId;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.scene.Scene;
import javafx.scene.layout.HBox;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReportText;
import org.copydesk.ui.common.FxTaskExecutor;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Theme;
import org.copydesk.ui.editor.EditorView;
import org.copydesk.ui.editor.EditorViewModel;

/**
 * The revision screenshots of {@link ScreenshotTour}: a wire story Ann sent back comes
 * in revised, and Dan, who gets it next, reads what changed under Ann's notes (light and dark); then
 * the writer sends yet another version while Dan holds it.
 */
final class RevisionTour {

    interface Fx {
        void run(Runnable action) throws Exception;
    }

    private static final String TITLE = "Council votes to close Riverside pool";
    private static final String FIRST = "The city council voted 7-2 on Tuesday to close the Riverside swimming pool at the end of"
            + " the summer, citing repair costs of 4 million.\\n\\nCouncillor Maria Lopez said the decision was"
            + " painful but unavoidable. Residents who spoke at the meeting asked the council to look for a buyer.";
    private static final String SECOND = "The city council voted 8-1 on Tuesday evening to close the Riverside swimming pool at"
            + " the end of the summer, citing repair costs of 4.2 million.\\n\\nCouncillor Maria Lopez called the decision"
            + " painful but unavoidable. About forty residents who spoke at the meeting asked the council to look for a buyer.";
    private static final String THIRD = SECOND.replace("look for a buyer.", "look for a buyer; the council will hear offers until June.");
    private static final String NOTES = "The clerk's minutes say 8-1, not 7-2, and the meeting ran into the evening."
            + " Please check the repair figure with the city's budget office and say how many residents spoke.";

    private final ReviewSession session;
    private final FxTaskExecutor tasks;
    private final Scene scene;
    private final Fx onFx;
    private final Consumer<String> shoot;
    private final BiConsumer<Integer, Integer> resize;
    private final ArticleImporter importer;

    RevisionTour(ReviewSession session, FxTaskExecutor tasks, Scene scene, Fx onFx, Consumer<String> shoot,
                 BiConsumer<Integer, Integer> resize) {
        this.resize = resize;
        this.session = session;
        this.tasks = tasks;
        this.scene = scene;
        this.onFx = onFx;
        this.shoot = shoot;
        this.importer = new ArticleImporter(session.database().dsl(), Clock.systemUTC());
    }

    void run() throws Exception {
        arrives(FIRST);
        long id = session.database().dsl().fetchValue(ARTICLE.ID, ARTICLE.EXTERNAL_ID.eq("WIRE-2041"));
        session.supervision().reassign(id, "ann", "sue", true, "Ann knows the council beat");
        HeldArticle held = session.queue().held("ann").stream().filter(a -> a.id() == id).findFirst().orElseThrow();
        var sentBack = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), id, held.lease(), Verdict.SEND_BACK, NOTES));
        if (!(sentBack instanceof DecisionOutcome.Recorded)) {
            throw new IllegalStateException("the send-back was not recorded: " + sentBack);
        }
        arrives(SECOND); // back from the writer: first in the queue (among priority 1)

        Editor dan = session.newsroom().requireEditor("dan");
        EditorViewModel model = new EditorViewModel(session, tasks, new FxTicker(), dan, dan.desks(),
                EditorViewModel.Settings.defaults(), ZoneId.systemDefault());
        onFx.run(() -> {
            scene.setRoot(new EditorView(model, new HBox()));
            model.start();
        });
        waitForOnFxThread(30, () -> model.articles().stream().anyMatch(r -> r.id() == id));
        onFx.run(() -> model.selectedProperty().set(model.articles().stream().filter(r -> r.id() == id).findFirst().orElseThrow()));
        waitForOnFxThread(30, () -> model.revisions().diffProperty().get() != null);
        Thread.sleep(800);
        shoot.accept("editor-revision-diff");
        onFx.run(() -> Theme.DARK.apply(scene));
        Thread.sleep(500);
        shoot.accept("editor-revision-diff-dark");
        onFx.run(() -> Theme.LIGHT.apply(scene));
        onFx.run(() -> resize.accept(1024, 640));
        Thread.sleep(800);
        shoot.accept("editor-revision-diff-1024x640");
        onFx.run(() -> resize.accept(1280, 800));
        Thread.sleep(500);

        arrives(THIRD); // while Dan reads: the list watch tells him within seconds
        waitForOnFxThread(30, () -> !model.revisions().newerNoticeProperty().get().isEmpty());
        Thread.sleep(500);
        shoot.accept("editor-newer-version");
        model.close();
    }

    private void arrives(String body) {
        String line = "{\"external_id\": \"WIRE-2041\", \"desk\": \"news\", \"title\": \"" + TITLE + "\", \"body\": \"" + body
                + "\", \"byline\": \"Kim Lee\", \"priority\": 1}\n";
        var report = importer.importStream(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), "cms.ndjson", -1,
                "sue", ImportListener.NONE);
        if (report.imported() + report.revisionRows().size() != 1) {
            throw new IllegalStateException(ImportReportText.of(report));
        }
    }
}
