package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** No table or list in the dashboard says JavaFX's default "No content in table". */
@ExtendWith(DatabaseExtension.class)
class DashboardPlaceholdersTest {

    @Test
    void everyEmptyTableSaysWhatIsMissingInWords(TestDatabase db) throws Exception {
        Fixtures.emptyNewsroom(db.dsl());
        ReviewSession services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of());
        DashboardViewModel model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), sue,
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        Stage[] stage = new Stage[1];
        DashboardView[] view = new DashboardView[1];
        FxToolkit.setupFixture(() -> {
            view[0] = new DashboardView(model);
            stage[0] = new Stage();
            Scene scene = new Scene(view[0], 1280, 800);
            Theme.LIGHT.apply(scene);
            stage[0].setScene(scene);
            stage[0].show();
        });
        try {
            for (DashboardTab tab : DashboardTab.values()) {
                FxToolkit.setupFixture(() -> view[0].show(tab));
                WaitForAsyncUtils.waitForFxEvents();
                Set<Node> tables = new java.util.HashSet<>(view[0].lookupAll(".table-view"));
                tables.addAll(view[0].lookupAll(".list-view"));
                for (Node n : tables) {
                    if ("list-view".equals(n.getId())) {
                        continue; // a drop-down's own list, inside its combo box
                    }
                    Node placeholder = n instanceof TableView<?> t ? t.getPlaceholder() : ((ListView<?>) n).getPlaceholder();
                    assertThat(placeholder).as("placeholder of %s on %s", n.getId(), tab).isInstanceOf(Label.class);
                    assertThat(((Label) placeholder).getText()).as("placeholder of %s on %s", n.getId(), tab).isNotBlank()
                            .doesNotContain("No content");
                }
            }
        } finally {
            FxToolkit.setupFixture(() -> {
                model.close();
                stage[0].close();
            });
        }
    }
}
