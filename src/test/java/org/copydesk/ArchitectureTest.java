package org.copydesk;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The walls of docs/architecture.md, held on the production classes (tests may cross them). Each rule is
 * defined once in {@link Walls}; {@link WallsBiteTest} shows each one catching a violation.
 */
@AnalyzeClasses(packages = "org.copydesk", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final Walls WALLS = Walls.under("org.copydesk");

    @ArchTest
    static final ArchRule lease_depends_on_nothing_of_ours_and_no_javafx = WALLS.leaseStandsAlone();

    @ArchTest
    static final ArchRule review_does_not_depend_on_javafx_ui_or_cli = WALLS.reviewKnowsNoUi();

    @ArchTest
    static final ArchRule ui_and_cli_use_neither_jdbc_nor_jooq = WALLS.uiAndCliUseNoSql();

    @ArchTest
    static final ArchRule cli_does_not_depend_on_javafx = WALLS.cliKnowsNoJavaFx();

    @ArchTest
    static final ArchRule view_models_do_not_touch_the_scene_graph = WALLS.viewModelsTouchNoScene();

    @ArchTest
    static final ArchRule views_reach_services_only_through_view_models = WALLS.viewsOnlyKnowTheirViewModels();

    @ArchTest
    static final ArchRule platform_run_later_only_in_ui_common = WALLS.runLaterOnlyInUiCommon();

    @ArchTest
    static final ArchRule console_output_only_in_cli = WALLS.consoleOnlyInCli();

    @ArchTest
    static final ArchRule no_cycles_between_top_level_packages = WALLS.noPackageCycles();

    @ArchTest
    static final ArchRule server_clock_and_session_account_read_in_one_place = WALLS.serverClockAndAccountReadInOnePlace();

    @ArchTest
    static final ArchRule ui_and_cli_reach_no_sql_through_our_getters = WALLS.uiAndCliReachNoSqlThroughGetters();

    @ArchTest
    static final ArchRule tables_are_written_only_by_the_database_operations = WALLS.tablesAreWrittenOnlyByTheOperations();
}
