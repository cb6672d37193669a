package org.copydesk;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each wall of {@link Walls}, applied to the offending fixtures under {@code org.copydesk.archfixture},
 * reports exactly the offences and none of the {@link AllowedBecause} exceptions. Without this, a
 * rule over a package that is still empty (ui, cli) could be wrong and nobody would know.
 */
class WallsBiteTest {

    private static final Walls WALLS = Walls.under("org.copydesk.archfixture");
    private static JavaClasses fixtures;

    @BeforeAll
    static void importFixtures() {
        fixtures = new ClassFileImporter().importPackages("org.copydesk.archfixture");
    }

    private static String violations(ArchRule rule) {
        List<String> details = rule.evaluate(fixtures).getFailureReport().getDetails();
        return String.join("\n", details);
    }

    @Test
    void everyWallCatchesSomethingInTheFixtures() {
        for (ArchRule rule : WALLS.all()) {
            assertThat(rule.evaluate(fixtures).hasViolation()).as(rule.getDescription()).isTrue();
        }
    }

    @Test
    void leaseMayNotKnowTheNewsroomOrJavaFx() {
        assertThat(violations(WALLS.leaseStandsAlone()))
                .contains("LeakyLease.peek(", "LeakyLease.colour()", "javafx.scene.paint.Color")
                .doesNotContain("CleanLease");
    }

    @Test
    void reviewMayNotKnowJavaFx() {
        assertThat(violations(WALLS.reviewKnowsNoUi()))
                .contains("ScreenAwareService.label()")
                .doesNotContain("ExemptScreen", "ArticleService");
    }

    @Test
    void uiAndCliMayNotUseJdbcOrJooq() {
        assertThat(violations(WALLS.uiAndCliUseNoSql()))
                .contains("Launcher.sneakyQuery(", "org.jooq.DSLContext", "PrintCommand.run(java.sql.Connection)")
                .doesNotContain("Launcher.wire(");
    }

    @Test
    void uiAndCliMayNotReachSqlThroughAGetterOfOurs() {
        assertThat(violations(WALLS.uiAndCliReachNoSqlThroughGetters()))
                .contains("ReachingCommand.run(", "SessionWithGetter.dsl()")
                .doesNotContain("ReachingCommand.fine(");
    }

    @Test
    void cliMayNotUseJavaFx() {
        assertThat(violations(WALLS.cliKnowsNoJavaFx())).contains("PrintCommand.run(", "javafx.application.Platform");
    }

    @Test
    void viewModelsMayNotHoldControls() {
        assertThat(violations(WALLS.viewModelsTouchNoScene()))
                .contains("EditorViewModel.button()", "javafx.scene.control.Button")
                .doesNotContain("DashboardView");
    }

    @Test
    void viewsMayNotCallServices() {
        assertThat(violations(WALLS.viewsOnlyKnowTheirViewModels()))
                .contains("EditorView.refresh(", "ArticleService")
                .doesNotContain("DashboardView", "EditorViewModel.");
    }

    @Test
    void runLaterOnlyInUiCommonWhetherCalledOrReferenced() {
        assertThat(violations(WALLS.runLaterOnlyInUiCommon()))
                .contains("EditorView.refresh(", "EditorViewModel.fxThread()")
                .doesNotContain("FxThread", "exemptHop");
    }

    @Test
    void onlyCliMayPrint() {
        assertThat(violations(WALLS.consoleOnlyInCli()))
                .contains("ScreenAwareService.shout(", "System.out", "printStackTrace")
                .doesNotContain("PrintCommand", "QuietService", "ExemptScreen");
    }

    @Test
    void serverClockAndAccountOnlyFromTheirHomes() {
        assertThat(violations(WALLS.serverClockAndAccountReadInOnePlace()))
                .contains("ClockReadingService.secondsOnly()", "DSL.currentLocalDateTime()", "ClockReadingService.whoAmI()",
                        "DSL.currentUser()")
                .doesNotContain("ServerClock", "SessionAccount", "exemptNow");
    }

    @Test
    void onlyTheOperationsWriteTablesWhateverTheEngineIsCalled() {
        assertThat(violations(WALLS.tablesAreWrittenOnlyByTheOperations()))
                .contains("ClaimEngine.take(", "DSLContext.update(", "ClaimEngine.log(", "DSL.insertInto(",
                        "ClaimEngine.keep(", "UpdatableRecord.store()", "RawHistoryWriter.append(", "DSLContext.execute(",
                        "RawHistoryWriter.appendOverJdbc(", "Connection.prepareStatement(")
                .doesNotContain("ClaimEngine.count(", "exemptPurge", "DatabaseOperations", "ServerSetup");
    }

    @Test
    void packageCyclesAreFound() {
        assertThat(violations(WALLS.noPackageCycles())).contains("lease", "review");
    }
}
