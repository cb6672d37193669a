package org.copydesk;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.Dependency.Predicates.dependencyTarget;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.conditions.ArchConditions.onlyHaveDependenciesWhere;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The walls of docs/architecture.md ("Layers and walls") as ArchUnit rules, for the packages under a root. {@code ArchitectureTest}
 * applies them to {@code org.copydesk}; {@code WallsBiteTest} applies the same rules to small
 * offending classes under {@code org.copydesk.archfixture} to prove that each rule catches what it
 * should (rules over empty packages pass vacuously, so a broken rule would otherwise go unnoticed).
 *
 * <p>Code annotated with {@link AllowedBecause} is exempt (see there for the scope).
 */
final class Walls {

    /** jOOQ's functions that read the server's clock or the session's account (wall 8). */
    private static final List<String> SERVER_CLOCK_AND_ACCOUNT = List.of("now", "currentDate", "currentTime",
            "currentTimestamp", "currentLocalDate", "currentLocalTime", "currentLocalDateTime", "currentOffsetDateTime",
            "currentOffsetTime", "currentInstant", "currentUser");

    /** jOOQ's builders of INSERT, UPDATE, DELETE, MERGE and TRUNCATE, on a DSLContext or DSL's static ones (wall 10). */
    private static final Set<String> DML_BUILDERS = Set.of("insertInto", "insertQuery", "update", "updateQuery", "delete",
            "deleteFrom", "deleteQuery", "mergeInto", "mergeQuery", "batchInsert", "batchUpdate", "batchStore", "batchDelete",
            "batchMerge", "executeInsert", "executeUpdate", "executeDelete", "truncate", "truncateTable", "loadInto");
    /** What writes a jOOQ record (a table row) back to its table (wall 10). */
    private static final Set<String> RECORD_WRITES = Set.of("store", "insert", "update", "delete", "merge");
    /** jOOQ's ways to send a statement written as text (wall 10): with an SQL string they can say anything. */
    private static final Set<String> PLAIN_SQL_STATEMENTS = Set.of("execute", "executeAsync", "query", "resultQuery", "fetch",
            "fetchOne", "fetchSingle", "fetchOptional", "fetchMany", "fetchLazy", "fetchStream", "fetchAsync", "fetchResultSet",
            "fetchValue", "fetchValues");
    /** JDBC's ways to send a statement (wall 10). */
    private static final Set<String> JDBC_STATEMENTS = Set.of("createStatement", "prepareStatement", "prepareCall", "execute",
            "executeUpdate", "executeLargeUpdate", "executeQuery", "executeBatch", "addBatch");

    private final String root;

    private Walls(String root) {
        this.root = root;
    }

    static Walls under(String rootPackage) {
        return new Walls(rootPackage);
    }

    List<ArchRule> all() {
        return List.of(leaseStandsAlone(), reviewKnowsNoUi(), uiAndCliUseNoSql(), cliKnowsNoJavaFx(),
                viewModelsTouchNoScene(), viewsOnlyKnowTheirViewModels(), runLaterOnlyInUiCommon(),
                consoleOnlyInCli(), noPackageCycles(), serverClockAndAccountReadInOnePlace(),
                uiAndCliReachNoSqlThroughGetters(), tablesAreWrittenOnlyByTheOperations());
    }

    /** 1. The lowest layer (lease values, the server's clock, retries) depends on nothing of ours and nothing of JavaFX. */
    ArchRule leaseStandsAlone() {
        DescribedPredicate<JavaClass> forbidden = ours().and(not(resideInAPackage(root + ".lease..")))
                .or(resideInAPackage("javafx.."))
                .as("classes of " + root + " outside lease, or of javafx");
        return classes().that().resideInAPackage(root + ".lease..")
                .should(onlyHaveDependenciesWhere(allowed(forbidden)))
                .because("db and every layer above use it, so it may use none of them");
    }

    /** 2. The newsroom logic runs without a screen. */
    ArchRule reviewKnowsNoUi() {
        return classes().that().resideInAPackage(root + ".review..")
                .should(onlyHaveDependenciesWhere(allowed(
                        resideInAnyPackage("javafx..", root + ".ui..", root + ".cli..").as("javafx, ui or cli"))))
                .because("review services are shared by the desktop app, the command line and the tests");
    }

    /** 3. Screens and commands call review services; they neither hold connections nor build SQL. */
    ArchRule uiAndCliUseNoSql() {
        return classes().that().resideInAnyPackage(root + ".ui..", root + ".cli..")
                .should(onlyHaveDependenciesWhere(allowed(resideInAnyPackage("java.sql..", "javax.sql..", "org.jooq..",
                        root + ".db.schema..").as("JDBC, jOOQ or the generated tables"))))
                .allowEmptyShould(true)
                .because("SQL lives behind review services; ui.app wiring the database needs a written exception");
    }

    /** 4. The command line runs on servers without a display. */
    ArchRule cliKnowsNoJavaFx() {
        return classes().that().resideInAPackage(root + ".cli..")
                .should(onlyHaveDependenciesWhere(allowed(resideInAPackage("javafx..").as("javafx"))))
                .allowEmptyShould(true);
    }

    /** 5a. View models are tested without a scene graph. */
    ArchRule viewModelsTouchNoScene() {
        return classes().that().resideInAPackage(root + "..").and().haveSimpleNameEndingWith("ViewModel")
                .should(onlyHaveDependenciesWhere(allowed(resideInAPackage("javafx.scene..").as("javafx.scene"))))
                .allowEmptyShould(true)
                .because("view models expose properties and commands; controls belong to views");
    }

    /**
     * 5b. Views reach the application only through their view models. They may show the newsroom's
     * values (records and enums such as a verdict), never call its services.
     */
    ArchRule viewsOnlyKnowTheirViewModels() {
        DescribedPredicate<JavaClass> services = resideInAPackage(root + ".review..")
                .and(describe("not a record or enum", c -> !c.isEnum() && !c.isRecord()
                        && !c.getEnclosingClass().map(e -> e.isEnum() || e.isRecord()).orElse(false)))
                .or(resideInAnyPackage(root + ".lease..", root + ".db.."))
                .as("review services, lease or db");
        return classes().that().resideInAPackage(root + ".ui..").and().haveSimpleNameEndingWith("View")
                .should(onlyHaveDependenciesWhere(allowed(services)))
                .allowEmptyShould(true)
                .because("a view binds to its view model; calling services from a view puts work on the FX thread");
    }

    /** 6a. One place hops onto the FX thread. */
    ArchRule runLaterOnlyInUiCommon() {
        return noClasses().that().resideOutsideOfPackage(root + ".ui.common..")
                .should().accessTargetWhere(unexempt(target("javafx.application.Platform", "runLater")))
                .because("FxTaskExecutor in ui.common is the one way onto the FX thread, which tests replace");
    }

    /** 6b. Only commands print; everything else logs through SLF4J. */
    ArchRule consoleOnlyInCli() {
        DescribedPredicate<JavaAccess<?>> console = target("java.lang.System", "out")
                .or(target("java.lang.System", "err"))
                .or(describe("Throwable.printStackTrace()", a -> a.getTarget().getName().equals("printStackTrace")
                        && a.getTarget().getOwner().isAssignableTo(Throwable.class)
                        && a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget t && t.getRawParameterTypes().isEmpty()));
        return noClasses().that().resideOutsideOfPackage(root + ".cli..")
                .should().accessTargetWhere(unexempt(console))
                .because("the desktop app has no console; log through SLF4J");
    }

    /** 7. No cycles between the top-level packages. */
    ArchRule noPackageCycles() {
        return slices().matching(root + ".(*)..").namingSlices("$1")
                .should().beFreeOfCycles()
                .ignoreDependency(describe("@AllowedBecause types", Walls::exempt), DescribedPredicate.alwaysTrue());
    }

    /**
     * 8. SQL that reads the server's clock is written only in {@code lease.ServerClock} (with
     * microseconds, in the session's UTC), and SQL that reads the session's account only in
     * {@code lease.SessionAccount}: server time only, one home per server-family expression.
     */
    ArchRule serverClockAndAccountReadInOnePlace() {
        List<String> homes = List.of(root + ".lease.ServerClock", root + ".lease.SessionAccount");
        DescribedPredicate<JavaAccess<?>> clockOrAccount = describe("jOOQ's current time or current user",
                a -> a.getTarget().getOwner().getName().equals("org.jooq.impl.DSL")
                        && SERVER_CLOCK_AND_ACCOUNT.contains(a.getTarget().getName()));
        return noClasses().that().resideInAPackage(root + "..")
                .and(describe("other than lease.ServerClock and lease.SessionAccount", c -> !homes.contains(c.getName())))
                .should().accessTargetWhere(unexempt(clockOrAccount))
                .because("expiry and \"today\" are the server's, to the microsecond; identity is the session's account");
    }

    /**
     * 9. Nor through a getter of ours: screens and commands call no method of ours that hands out a
     * connection, a data source or a jOOQ context (a session gives them what they need instead).
     */
    ArchRule uiAndCliReachNoSqlThroughGetters() {
        DescribedPredicate<JavaAccess<?>> handsOutSql = describe("a method of ours returning a JDBC or jOOQ type",
                a -> a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget unit
                        && unit.getOwner().getPackageName().startsWith(root)
                        && Stream.of("java.sql", "javax.sql", "org.jooq")
                                .anyMatch(p -> unit.getRawReturnType().getPackageName().startsWith(p)));
        return noClasses().that().resideInAnyPackage(root + ".ui..", root + ".cli..")
                .should().accessTargetWhere(unexempt(handsOutSql))
                .because("a session hands out what screens and commands need, never its database");
    }

    /**
     * 10. The database's operations are the only writers of its tables: outside {@code db} (which
     * sets up the server, its accounts and the schema) no class builds an INSERT, UPDATE, DELETE or
     * MERGE with jOOQ, writes a jOOQ record back, or sends a statement written as text (jOOQ's plain
     * SQL, JDBC) except {@code review.DatabaseOperations}, which sends only {@code call routine(…)}.
     * So a claim engine in Java cannot come back under another name; an administrator's own writes
     * (setup, purges) each carry their reason.
     */
    ArchRule tablesAreWrittenOnlyByTheOperations() {
        String home = root + ".review.DatabaseOperations";
        DescribedPredicate<JavaAccess<?>> writes = describe("a jOOQ INSERT/UPDATE/DELETE/MERGE, a record written back,"
                + " or a statement written as text (jOOQ plain SQL, JDBC)", a -> {
                    AccessTarget target = a.getTarget();
                    String owner = target.getOwner().getName();
                    String name = target.getName();
                    boolean jooq = owner.equals("org.jooq.DSLContext") || owner.equals("org.jooq.impl.DSL");
                    if (jooq && DML_BUILDERS.contains(name)) {
                        return true;
                    }
                    if (RECORD_WRITES.contains(name) && target.getOwner().isAssignableTo("org.jooq.TableRecord")) {
                        return true;
                    }
                    if (jooq && PLAIN_SQL_STATEMENTS.contains(name) && target instanceof AccessTarget.CodeUnitAccessTarget unit
                            && !unit.getRawParameterTypes().isEmpty()) {
                        String first = unit.getRawParameterTypes().get(0).getName();
                        return first.equals("java.lang.String") || first.equals("org.jooq.SQL");
                    }
                    return JDBC_STATEMENTS.contains(name) && (target.getOwner().isAssignableTo("java.sql.Connection")
                            || target.getOwner().isAssignableTo("java.sql.Statement"));
                });
        return noClasses().that().resideInAPackage(root + "..").and().resideOutsideOfPackage(root + ".db..")
                .and(describe("other than review.DatabaseOperations", c -> !c.getName().equals(home)))
                .should().accessTargetWhere(unexempt(writes))
                .because("editors and supervisors change data only through the database's operations, which check who"
                        + " calls and write the history; a write in Java would be a second engine the database cannot vouch for");
    }

    // ---------------------------------------------------------------------------------------------

    private DescribedPredicate<JavaClass> ours() {
        return resideInAPackage(root + "..").and(not(describe("AllowedBecause", c -> c.isEquivalentTo(AllowedBecause.class))));
    }

    /** A dependency is fine when its target is not forbidden or its origin is exempt. */
    private static DescribedPredicate<Dependency> allowed(DescribedPredicate<? super JavaClass> forbiddenTarget) {
        return dependencyTarget(not(forbiddenTarget))
                .or(describe("from @AllowedBecause code", Walls::exempt))
                .as("not on " + forbiddenTarget.getDescription() + " (except @AllowedBecause)");
    }

    private static DescribedPredicate<JavaAccess<?>> target(String owner, String name) {
        return describe(simpleName(owner) + "." + name,
                a -> a.getTarget().getOwner().getName().equals(owner) && a.getTarget().getName().equals(name));
    }

    private static DescribedPredicate<JavaAccess<?>> unexempt(DescribedPredicate<JavaAccess<?>> access) {
        return access.and(describe("outside @AllowedBecause code", a -> !exempt(a.getOrigin())))
                .as(access.getDescription());
    }

    static boolean exempt(JavaClass type) {
        for (JavaClass c = type; c != null; c = c.getEnclosingClass().orElse(null)) {
            if (c.isAnnotatedWith(AllowedBecause.class)
                    || c.getEnclosingCodeUnit().map(Walls::annotatedMember).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    static boolean exempt(JavaCodeUnit codeUnit) {
        return annotatedMember(codeUnit) || exempt(codeUnit.getOwner());
    }

    /**
     * ArchUnit does not say which member a dependency comes from, but every dependency's
     * description starts with its origin member's description ("Method &lt;a.B.m()&gt; calls …").
     */
    static boolean exempt(Dependency dependency) {
        JavaClass origin = dependency.getOriginClass();
        if (exempt(origin)) {
            return true;
        }
        String description = dependency.getDescription();
        return Stream.concat(origin.getCodeUnits().stream(), origin.getFields().stream())
                .filter(m -> description.startsWith(m.getDescription() + " "))
                .anyMatch(m -> m instanceof JavaCodeUnit cu && annotatedMember(cu));
    }

    /** The member is annotated, or is a lambda body ({@code lambda$name$N}) of an annotated member. */
    private static boolean annotatedMember(JavaCodeUnit codeUnit) {
        if (codeUnit.isAnnotatedWith(AllowedBecause.class)) {
            return true;
        }
        return lambdaHost(codeUnit).map(host -> host.isAnnotatedWith(AllowedBecause.class)).orElse(false);
    }

    private static Optional<? extends JavaMember> lambdaHost(JavaCodeUnit codeUnit) {
        String name = codeUnit.getName();
        if (!name.startsWith("lambda$")) {
            return Optional.empty();
        }
        String[] parts = name.split("\\$");
        String host = parts.length > 1 ? ("new".equals(parts[1]) ? JavaConstructor.CONSTRUCTOR_NAME : parts[1]) : "";
        return codeUnit.getOwner().getCodeUnits().stream()
                .filter(cu -> cu.getName().equals(host) && cu.isAnnotatedWith(AllowedBecause.class))
                .findFirst();
    }

    private static String simpleName(String qualified) {
        return qualified.substring(qualified.lastIndexOf('.') + 1);
    }
}
