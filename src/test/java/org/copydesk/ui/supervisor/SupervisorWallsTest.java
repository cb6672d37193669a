package org.copydesk.ui.supervisor;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.Dependency.Predicates.dependencyTarget;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.conditions.ArchConditions.onlyHaveDependenciesWhere;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's own walls, beside the project's (which know views by the name "View"): its pages
 * and panels are views too and reach the newsroom only through their view models; the live
 * table's logic has no JavaFX in it. Each rule is shown to catch a class that breaks it.
 */
class SupervisorWallsTest {

    private static final JavaClasses DASHBOARD = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.copydesk.ui.supervisor");

    private static final DescribedPredicate<Dependency> ON_SERVICES = dependencyTarget(resideInAPackage("org.copydesk.review..")
            .and(describe("not a record or enum", (JavaClass c) -> !c.isEnum() && !c.isRecord()
                    && !c.getEnclosingClass().map(e -> e.isEnum() || e.isRecord()).orElse(false)))
            .or(resideInAnyPackage("org.copydesk.lease..", "org.copydesk.db..")));

    private static final DescribedPredicate<Dependency> ON_JAVAFX = dependencyTarget(resideInAPackage("javafx.."));

    private static ArchRule pagesKnowNoServices(DescribedPredicate<JavaClass> which) {
        return classes().that(which).should(onlyHaveDependenciesWhere(DescribedPredicate.not(ON_SERVICES)))
                .because("a page binds to its view model; calling services from it puts work on the FX thread");
    }

    private static ArchRule noJavaFx(DescribedPredicate<JavaClass> which) {
        return classes().that(which).should(onlyHaveDependenciesWhere(DescribedPredicate.not(ON_JAVAFX)))
                .because("the live table's logic is plain Java, tested without a scene or a toolkit");
    }

    private static DescribedPredicate<JavaClass> named(String... names) {
        return describe("named " + String.join(", ", names), c -> {
            String top = c.getEnclosingClass().map(JavaClass::getSimpleName).orElse(c.getSimpleName());
            return java.util.Arrays.asList(names).contains(top);
        });
    }

    private static final DescribedPredicate<JavaClass> PAGES = describe("pages, panels and strips", c -> {
        String n = c.getEnclosingClass().map(JavaClass::getSimpleName).orElse(c.getSimpleName());
        return n.endsWith("Page") || n.endsWith("Panel") || n.endsWith("Strip") || n.equals("Tables");
    });

    @Test
    void pagesReachTheNewsroomOnlyThroughTheirViewModels() {
        pagesKnowNoServices(PAGES).check(DASHBOARD);
        assertThatThrownBy(() -> pagesKnowNoServices(named("LeaseBatch")).check(DASHBOARD))
                .as("the rule bites: LeaseBatch calls Supervision").isInstanceOf(AssertionError.class);
    }

    @Test
    void theLiveTablesLogicHasNoJavaFx() {
        noJavaFx(named("HoldersTable", "HeldChanges", "HolderRow", "HolderSort", "Grouping", "Presence", "LeaseBatch",
                "TableSnapshot", "CsvExport")).check(DASHBOARD);
        assertThatThrownBy(() -> noJavaFx(named("HoldersViewModel")).check(DASHBOARD))
                .as("the rule bites: the view model has properties").isInstanceOf(AssertionError.class);
    }
}
