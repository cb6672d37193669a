package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.enums.EditorRole;
import org.copydesk.lease.Lease;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The attack suite: signs in as editors and a supervisor with their own database accounts and
 * tries, with raw SQL from that account (each statement as an attacker would type it) and through
 * the app's services, everything they must not be able to do. Every attempt must be refused, or
 * have no effect, and change no row; the legitimate work must go through. docs/security.md lists
 * the attacks and what the server answered.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseEnforcedSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(DatabaseEnforcedSecurityTest.class);

    private final TestDatabase db;
    private final DSLContext root;
    private final Attacks attacks;
    private Database annDb;
    private Database bobDb;
    private Database sueDb;
    private ReviewSession ann;
    private ReviewSession bob;
    private ReviewSession sue;

    DatabaseEnforcedSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("legal", "Legal", Duration.ofMinutes(30));
        n.addEditor("sec_ann", "Ann", Role.EDITOR, 2, List.of("news"));
        n.addEditor("sec_bob", "Bob", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sec_sue", "Sue", Role.SUPERVISOR, 5, List.of("news", "legal"));
        n.addEditor("sec_adm", "Adam", Role.ADMIN, 0, List.of());
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount("sec_ann", "ann-secret-1".toCharArray());
        accounts.createAccount("sec_bob", "bob-secret-1".toCharArray());
        accounts.createAccount("sec_sue", "sue-secret-1".toCharArray());
        accounts.createAccount("sec_adm", "adm-secret-1".toCharArray());
        annDb = signIn("sec_ann", "ann-secret-1");
        bobDb = signIn("sec_bob", "bob-secret-1");
        sueDb = signIn("sec_sue", "sue-secret-1");
        ann = new ReviewSession(annDb, ReviewSession.Options.defaults());
        bob = new ReviewSession(bobDb, ReviewSession.Options.defaults());
        sue = new ReviewSession(sueDb, ReviewSession.Options.defaults());
    }

    private Database signIn(String user, String password) {
        return Database.open(attacks.url(), user, password.toCharArray(), null, DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
    }

    @AfterAll
    void close() {
        attacks.log(log, "people");
        annDb.close();
        bobDb.close();
        sueDb.close();
        AccountAdministration accounts = new AccountAdministration(root);
        List.of("sec_ann", "sec_bob", "sec_sue", "sec_adm").forEach(accounts::dropAccount);
    }

    @BeforeEach
    void articles() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        root.deleteFrom(DECISION).execute();
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
        Fixtures.articles(root, "legal", 2, 3, -60);
    }

    /** Runs the statements on one raw session of Ann's; returns the first column of the last result's first row. */
    private String annRuns(String... statements) {
        return attacks.runs("sec_ann", "ann-secret-1", statements);
    }

    private String runs(String user, String password, String... statements) {
        return attacks.runs(user, password, statements);
    }

    private void refused(String what, Runnable attempt) {
        attacks.refused(what, attempt);
    }

    private LocalDateTime serverUtcNow() {
        return root.select(DSL.field("utc_timestamp(6)", LocalDateTime.class)).fetchOne(0, LocalDateTime.class);
    }

    // --- the clock: nothing the session sets moves the database's time ------------------------

    @Test
    void aSessionThatMovesItsClockCannotTakeOrKeepALease() {
        HeldArticle bobs = bob.queue().claim("sec_bob").articles().get(0);
        long id = bobs.id();

        refused("take bob's valid lease after SET timestamp = now + 1 h (raw UPDATE)", () -> annRuns(
                "SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 3600",
                "UPDATE article SET locked_by = 'sec_ann', lease_token = lease_token + 1, claimed_at = NOW(6), "
                        + "expires_at = NOW(6) + INTERVAL 1800 SECOND WHERE id = " + id));
        refused("take bob's valid lease after SET time_zone = '+13:00' (raw UPDATE)", () -> annRuns(
                "SET time_zone = '+13:00'",
                "UPDATE article SET locked_by = 'sec_ann', expires_at = NOW(6) + INTERVAL 1800 SECOND WHERE id = " + id));

        Attacks.Snapshot before = attacks.snapshot();
        annRuns("SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 3600", "SET time_zone = '+13:00'",
                "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)");
        Record bobsRow = root.selectFrom(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOne();
        assertThat(bobsRow.get(ARTICLE.LOCKED_BY)).as("bob's valid lease stays bob's").isEqualTo("sec_bob");
        assertThat(bobsRow.get(ARTICLE.LEASE_TOKEN)).isEqualTo(before.articles().stream()
                .filter(r -> r.get(ARTICLE.ID) == id).findFirst().orElseThrow().get(ARTICLE.LEASE_TOKEN));
        List<LocalDateTime> annExpiries = root.select(ARTICLE.EXPIRES_AT).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("sec_ann"))
                .fetch(ARTICLE.EXPIRES_AT);
        LocalDateTime realNow = serverUtcNow();
        assertThat(annExpiries).isNotEmpty().allSatisfy(e -> assertThat(Duration.between(realNow, e))
                .as("a claim from a tampered session expires by the real clock").isBetween(Duration.ofMinutes(29), Duration.ofMinutes(31)));
        assertThat(root.select(LEASE_EVENT.OCCURRED_AT).from(LEASE_EVENT).where(LEASE_EVENT.ACTOR.eq("sec_ann"))
                .fetch(LEASE_EVENT.OCCURRED_AT)).allSatisfy(t -> assertThat(Duration.between(t, realNow).abs())
                .as("history is written at the real time").isLessThan(Duration.ofMinutes(1)));
        attacks.noEffect("claim through claim_articles with SET timestamp +1 h and time_zone +13:00",
                "bob's lease untouched; ann's leases expire 30 min after the real time");

        annRuns("SET timestamp = UNIX_TIMESTAMP('2037-01-01')",
                "CALL renew_leases(NULL, (SELECT CONCAT('[', GROUP_CONCAT(CONCAT('[', id, ',', lease_token, ']')), ']') "
                        + "FROM article WHERE locked_by = 'sec_ann'))");
        assertThat(root.select(DSL.max(ARTICLE.EXPIRES_AT)).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("sec_ann"))
                .fetchOne(0, LocalDateTime.class)).as("renewing with the clock at 2037 keeps the real desk length")
                .isBefore(serverUtcNow().plusMinutes(31));
        attacks.noEffect("renew own leases with SET timestamp = 2037", "expiry stays 30 min after the real time");
    }

    @Test
    void aClaimedEmbargoStaysClosedWhateverTheSessionClockSays() {
        root.deleteFrom(ARTICLE).execute();
        List<Long> embargoed = Fixtures.articles(root, "news", 2, 1, 3600);
        annRuns("SET timestamp = UNIX_TIMESTAMP(SYSDATE()) + 7200", "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)");
        assertThat(root.fetchCount(ARTICLE, ARTICLE.ID.in(embargoed).and(ARTICLE.LOCKED_BY.isNotNull())))
                .as("embargoed articles are not handed out early").isZero();
        attacks.noEffect("claim embargoed articles with SET timestamp +2 h", "nothing claimed");
    }

    // --- editors write nothing but through the database's operations -------------------------

    @Test
    void anEditorHasNoTableWritesAtAll() {
        HeldArticle held = ann.queue().claim("sec_ann").articles().get(0);
        long bobsId = bob.queue().claim("sec_bob").articles().get(0).id();
        refused("write a forged approval in bob's name through the release path", () -> annRuns(
                "UPDATE article SET locked_by = NULL, expires_at = NULL, status = 'approved', decided_by = 'sec_bob', "
                        + "decided_at = '2001-01-01' WHERE id = " + held.id()));
        refused("bury an article until 2099", () -> annRuns(
                "UPDATE article SET locked_by = NULL, expires_at = NULL, available_at = '2099-01-01' WHERE id = " + held.id()));
        refused("change the text of an article one holds", () -> annRuns("UPDATE article SET title = 'Rewritten' WHERE id = " + held.id()));
        refused("move an article to another desk", () -> annRuns("UPDATE article SET desk_id = 'legal' WHERE id = " + held.id()));
        refused("approve someone else's article with raw SQL", () -> annRuns(
                "UPDATE article SET status = 'approved', locked_by = NULL WHERE id = " + bobsId));
        refused("import articles", () -> annRuns("INSERT INTO article (external_id, desk_id, title, body) VALUES ('x-1', 'news', 't', 'b')"));
        refused("record a decision in someone else's name", () -> annRuns(
                "INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token) VALUES ('"
                        + UUID.randomUUID() + "', " + bobsId + ", 'sec_bob', 'approve', '', 1)"));
        refused("write history (a forged event)", () -> annRuns(
                "INSERT INTO lease_event (resource, row_key, action, actor, occurred_at) VALUES ('article', '1', 'approve', 'sec_sue', '2001-01-01')"));
        refused("delete history", () -> annRuns("DELETE FROM lease_event"));
        refused("edit history", () -> annRuns("UPDATE lease_event SET actor = 'nobody'"));
        refused("raise one's own capacity", () -> annRuns("UPDATE editor SET capacity = 50 WHERE id = 'sec_ann'"));
        refused("add oneself to a desk", () -> annRuns("INSERT INTO editor_desk (editor_id, desk_id) VALUES ('sec_ann', 'legal')"));
        refused("change a desk's lease length", () -> annRuns("UPDATE desk SET lease_seconds = 86400"));
        refused("overwrite another editor's draft", () -> annRuns("UPDATE review_draft SET notes = 'gotcha' WHERE editor_id = 'sec_bob'"));
        refused("read another editor's draft with raw SQL", () -> annRuns("SELECT notes FROM review_draft"));
        refused("call a supervisor's operation (extend)", () -> annRuns("CALL extend_lease(NULL, " + held.id() + ", 86400)"));
        refused("call an internal procedure (log_event)", () -> annRuns(
                "CALL log_event(1, 'approve', 'sec_sue', NULL, NULL, NULL, NULL, NULL, 'forged', '2001-01-01')"));
        refused("call an internal function (lease_expiry, V12)", () -> annRuns("SELECT lease_expiry('news', NULL, NOW())"));
        refused("call an internal function (event_detail, V12)", () -> annRuns("SELECT event_detail('forged')"));
    }

    @Test
    void theGrantsOfEachRoleAllowNoTableWritesToEditorsOrSupervisors() {
        for (String account : List.of("sec_ann", "sec_bob")) {
            List<String> grants = root.fetch("show grants for '" + account + "'@'%'").getValues(0, String.class);
            assertThat(grants).as(account + "'s grants").isNotEmpty()
                    .noneMatch(g -> g.matches("(?i).*\\b(INSERT|UPDATE|DELETE|ALL PRIVILEGES|CREATE|DROP|ALTER|LOCK TABLES)\\b.*"));
            assertThat(grants).anyMatch(g -> g.contains("EXECUTE") && g.contains("claim_articles"));
        }
        List<String> supervisor = root.fetch("show grants for 'sec_sue'@'%'").getValues(0, String.class);
        assertThat(supervisor).as("sec_sue's grants").isNotEmpty()
                .noneMatch(g -> g.matches("(?i).*\\b(INSERT|UPDATE|DELETE|ALL PRIVILEGES|CREATE|DROP|ALTER|LOCK TABLES)\\b.*"));
        assertThat(supervisor).anyMatch(g -> g.contains("EXECUTE") && g.contains("import_articles"));
    }

    @Test
    void accountsAreManagedOnlyThroughTheOperationsAndOnlyForPeopleOfTheNewsroom() {
        String adm = "adm-secret-1";
        refused("an admin creates a database account directly", () -> runs("sec_adm", adm,
                "CREATE USER 'intruder'@'%' IDENTIFIED BY 'intruder-pass-1'"));
        refused("an admin renames root", () -> runs("sec_adm", adm, "RENAME USER 'root'@'localhost' TO 'gone'@'localhost'"));
        refused("an admin gives an editor table writes", () -> runs("sec_adm", adm,
                "GRANT UPDATE ON article TO 'sec_ann'@'%'"));
        refused("an admin makes an account for someone not in the newsroom", () -> runs("sec_adm", adm,
                "CALL create_account('intruder', 'intruder-pass-1')"));
        refused("an admin takes over root through the operation", () -> runs("sec_adm", adm,
                "CALL set_account_password('root', 'mine-now-123')"));
        runs("sec_adm", adm, "INSERT INTO editor (id, display_name, role) VALUES ('root', 'Root', 'admin')");
        refused("an admin adds a person called root, then sets root's password", () -> runs("sec_adm", adm,
                "CALL set_account_password('root', 'mine-now-123')"));
        refused("an admin adds a person called root, then makes their account", () -> runs("sec_adm", adm,
                "CALL create_account('root', 'mine-now-123')"));
        root.deleteFrom(org.copydesk.db.schema.Tables.EDITOR).where(org.copydesk.db.schema.Tables.EDITOR.ID.eq("root")).execute();
        refused("an admin passes SQL in a name", () -> runs("sec_adm", adm,
                "CALL create_account('x''@''%'' IDENTIFIED BY ''p''; --', 'intruder-pass-1')"));
        refused("an editor creates an account", () -> annRuns("CALL create_account('sec_ann', 'new-pass-123')"));
        refused("an editor raises their own capacity through the operation", () -> annRuns(
                "CALL set_editor_capacity('sec_ann', 50)"));
        refused("an editor adds themselves to a desk through the operation", () -> annRuns(
                "CALL set_editor_desks('sec_ann', 'news,legal')"));
        assertThat(root.fetchCount(DSL.table("mysql.user"), DSL.field("user").eq("intruder"))).isZero();

        // the legitimate ones
        runs("sec_sue", "sue-secret-1", "CALL set_editor_capacity('sec_bob', 4)");
        assertThat(root.fetchValue(org.copydesk.db.schema.Tables.EDITOR.CAPACITY, org.copydesk.db.schema.Tables.EDITOR.ID.eq("sec_bob"))).isEqualTo(4);
        runs("sec_adm", adm, "CALL set_account_password('sec_bob', 'bob-secret-1')");
        runs("sec_sue", "sue-secret-1", "CALL set_editor_capacity('sec_bob', 5)");
    }

    @Test
    void anEditorCannotActForSomeoneElse() {
        refused("claim as another editor through the API", () -> ann.queue().claim("sec_bob"));
        assertThat(attacks.refused("claim as another editor with raw SQL",
                () -> annRuns("CALL claim_articles('sec_bob', NULL, NULL, NULL, NULL)")))
                .contains("you can act only for yourself");
        long id = bob.queue().claim("sec_bob").articles().get(0).id();
        Lease bobs = bob.queue().held("sec_bob").get(0).lease();
        refused("save a draft in another editor's name", () -> ann.drafts().save(id, "sec_bob", null, "forged"));
        refused("release someone else's article as them", () -> annRuns(
                "CALL release_article('sec_bob', " + bobs.key().single() + ", " + bobs.token() + ", NULL)"));
        refused("force-release as an editor", () -> ann.supervision().forceRelease(id, "sec_ann", "mine now"));
        refused("reassign as an editor", () -> ann.supervision().reassign(id, "sec_ann", "sec_ann", true, null));
    }

    /**
     * The operations check the signed-in person's role themselves (resolve_actor), not only through the
     * grants: an account whose person lost a role keeps that role's grants until they are given again,
     * and an account that is no one's may have been granted an operation by hand.
     */
    @Test
    void anOperationChecksThePersonsRoleWhereTheGrantsWouldAllowIt() {
        long id = bob.queue().claim("sec_bob").articles().get(0).id();
        var editor = EDITOR;
        try {
            root.update(editor).set(editor.ROLE, EditorRole.editor).where(editor.ID.eq("sec_sue")).execute();
            assertThat(attacks.refused("a supervisor made an editor (grants not given again) extends a lease",
                    () -> runs("sec_sue", "sue-secret-1", "CALL extend_lease(NULL, " + id + ", 600)")))
                    .contains("only a supervisor may do this");
            root.update(editor).set(editor.ROLE, EditorRole.supervisor).where(editor.ID.eq("sec_adm")).execute();
            assertThat(attacks.refused("an admin made a supervisor (grants not given again) sets a password",
                    () -> runs("sec_adm", "adm-secret-1", "CALL set_account_password('sec_bob', 'bob-secret-2')")))
                    .contains("only an admin may do this");
        } finally {
            root.update(editor).set(editor.ROLE, EditorRole.supervisor).where(editor.ID.eq("sec_sue")).execute();
            root.update(editor).set(editor.ROLE, EditorRole.admin).where(editor.ID.eq("sec_adm")).execute();
        }
        db.endpoint().execute("CREATE USER IF NOT EXISTS 'sec_ghost'@'%' IDENTIFIED BY 'ghost-secret-1'");
        try {
            db.endpoint().execute("GRANT EXECUTE ON PROCEDURE `" + db.name() + "`.claim_articles TO 'sec_ghost'@'%'");
            assertThat(attacks.refused("an account that is no one's, granted claim_articles by hand, claims",
                    () -> runs("sec_ghost", "ghost-secret-1", "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)")))
                    .contains("not a Copydesk editor, supervisor or admin");
        } finally {
            db.endpoint().execute("DROP USER IF EXISTS 'sec_ghost'@'%'");
        }
        runs("sec_sue", "sue-secret-1", "CALL extend_lease(NULL, " + id + ", 600)");
    }

    @Test
    void anEditorCannotDecideReleaseOrRenewWhatTheyDoNotHold() {
        HeldArticle bobs = bob.queue().claim("sec_bob").articles().get(0);
        Lease forged = new Lease(bobs.lease().key(), "sec_ann", bobs.lease().token(), bobs.lease().expiresAt(),
                bobs.lease().serverTime());
        Attacks.Snapshot before = attacks.snapshot();
        DecisionOutcome outcome = ann.decisions().submit(new DecisionRequest(UUID.randomUUID(), bobs.id(), forged,
                Verdict.APPROVE, "mine"));
        assertThat(outcome).isInstanceOf(DecisionOutcome.Lost.class);
        assertThat(annRuns("CALL decide_article(NULL, " + bobs.id() + ", " + bobs.lease().token() + ", '" + UUID.randomUUID()
                + "', 'approve', '')")).isEqualTo("lost");
        assertThat(annRuns("CALL release_article(NULL, " + bobs.id() + ", " + bobs.lease().token() + ", NULL)")).isEqualTo("0");
        assertThat(ann.queue().renew("sec_ann", List.of(bobs.withLease(forged))).lost()).hasSize(1);
        attacks.unchangedSince(before, "decide, release and renew an article someone else holds");
        attacks.noEffect("decide / release / renew bob's article with his token", "answered lost; nothing changed");
        assertThat(bob.queue().renew("sec_bob", List.of(bobs)).renewed()).hasSize(1);
    }

    @Test
    void anEditorCannotClaimOutsideTheirDesksOrPastTheirCapacity() {
        annRuns("CALL claim_articles(NULL, 'legal', 10, NULL, NULL)");
        assertThat(root.fetchCount(ARTICLE, ARTICLE.DESK_ID.eq("legal").and(ARTICLE.LOCKED_BY.isNotNull())))
                .as("no article of a desk the editor does not work on").isZero();
        attacks.noEffect("claim from the legal desk (not one of ann's)", "nothing claimed");
        annRuns("CALL claim_articles(NULL, NULL, 10, NULL, NULL)");
        annRuns("CALL claim_articles(NULL, NULL, 10, NULL, 'OPTIMISTIC')");
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sec_ann"))).as("capacity 2, however asked").isEqualTo(2);
        attacks.noEffect("claim 10 with capacity 2, twice, with two strategies", "holds 2");
        refused("claim with a made-up strategy", () -> annRuns("CALL claim_articles(NULL, NULL, 1, NULL, 'MINE')"));
    }

    @Test
    void lettingLeasesLapseAndRenewingThemLaterDoesNotDoubleTheCapacity() {
        List<HeldArticle> first = ann.queue().claim("sec_ann").articles();
        assertThat(first).hasSize(2);
        // lapsed, and (lowest priority) not the next claim's first choice, so they keep their tokens
        root.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .set(ARTICLE.PRIORITY, 5).where(ARTICLE.LOCKED_BY.eq("sec_ann")).execute();
        assertThat(ann.queue().claim("sec_ann").articles()).hasSize(2).noneMatch(h -> first.stream().anyMatch(f -> f.id() == h.id()));

        ReviewQueue.Renewal revived = ann.queue().renew("sec_ann", first);

        assertThat(revived.renewed()).as("lapsed leases are not revived past capacity").isEmpty();
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sec_ann").and(ARTICLE.EXPIRES_AT.gt(ServerClock.now()))))
                .isEqualTo(2);
        attacks.noEffect("let leases lapse, claim more, renew the lapsed ones with their tokens", "still 2 held (capacity 2)");
    }

    @Test
    void sessionSettingsDoNotLoosenTheOperationsChecks() {
        long id = ann.queue().claim("sec_ann").articles().get(0).id();
        refused("save a draft with a made-up verdict under sql_mode = ''", () -> annRuns("SET sql_mode = ''",
                "CALL save_draft(NULL, " + id + ", 'approved-by-me', 'x')"));
        refused("decide without a reason under sql_mode = ''", () -> annRuns("SET sql_mode = ''",
                "CALL decide_article(NULL, " + id + ", 1, '" + UUID.randomUUID() + "', 'reject', '   ')"));
    }

    /** Which servers a hostile setting exists on. */
    enum Servers { BOTH, MARIADB, MYSQL }

    /** What a control statement run under the hostile setting answered: its first value, or its error. */
    @FunctionalInterface
    interface Control {
        String run(Statement s) throws SQLException;
    }

    /**
     * A session setting a caller can SET that would make an operation's statements fail or do less
     * (or, for the speed-only ones, make a plan walk the table); {@code control}, when there is one,
     * shows on a plain session of the owner that the value does bite a statement outside an
     * operation, answering {@code controlShows} (or one of its |-separated parts).
     */
    record Hostile(String set, Servers servers, Control control, String controlShows) {
        @Override
        public String toString() {
            return set;
        }
    }

    private static Control statements(String... sql) {
        return s -> {
            String last = Attacks.runs(s, sql);
            return last == null ? "(no row)" : last;
        };
    }

    static Stream<Hostile> hostileSettings() {
        String probe = "CREATE TEMPORARY TABLE probe (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, x INT)";
        return Stream.of(
                new Hostile("SET SESSION max_join_size = 1, sql_big_selects = 0", Servers.BOTH,
                        statements("SELECT COUNT(*) FROM article a JOIN article b"), "MAX_JOIN_SIZE"),
                new Hostile("SET SESSION sql_select_limit = 1", Servers.BOTH, s -> {
                    try (ResultSet rs = s.executeQuery("SELECT id FROM article")) {
                        int rows = 0;
                        while (rs.next()) {
                            rows++;
                        }
                        return rows + " row(s)";
                    }
                }, "1 row(s)"),
                new Hostile("SET SESSION sql_safe_updates = 1", Servers.BOTH,
                        statements("UPDATE session_limit SET lock_seconds = lock_seconds WHERE xa_seconds >= 0"), "safe update"),
                new Hostile("SET SESSION TRANSACTION READ ONLY", Servers.BOTH,
                        statements("UPDATE session_limit SET lock_seconds = lock_seconds WHERE id = 1"), "READ ONLY|read-only"),
                new Hostile("SET SESSION completion_type = 'RELEASE'", Servers.BOTH,
                        statements("START TRANSACTION", "COMMIT", "SELECT 'still connected'"), "error"),
                new Hostile("SET SESSION completion_type = 'CHAIN'", Servers.MARIADB,
                        statements("START TRANSACTION", "COMMIT", "SELECT @@in_transaction"), "1"),
                new Hostile("SET SESSION sql_auto_is_null = 1", Servers.BOTH,
                        statements(probe, "INSERT INTO probe (x) VALUES (1)", "SELECT COUNT(*) FROM probe WHERE id IS NULL"), "1"),
                new Hostile("SET SESSION auto_increment_increment = 65535, auto_increment_offset = 7", Servers.BOTH,
                        statements(probe, "INSERT INTO probe (x) VALUES (1), (2)", "SELECT MAX(id) - MIN(id) FROM probe"), "65535"),
                new Hostile("SET insert_id = 1", Servers.MARIADB,
                        statements(probe, "INSERT INTO probe (id, x) VALUES (10, 0)", "INSERT INTO probe (x) VALUES (1)",
                                "SELECT id FROM probe WHERE x = 1"), "1"),
                new Hostile("SET SESSION div_precision_increment = 0", Servers.BOTH, statements("SELECT CEIL(21 / 20)"), "1"),
                new Hostile("SET SESSION max_error_count = 0", Servers.MARIADB, // MySQL: SESSION_VARIABLES_ADMIN only
                        statements("SELECT CAST('1x' AS SIGNED)", "SHOW WARNINGS"), "(no row)"),
                new Hostile("SET SESSION max_sort_length = 8, sort_buffer_size = 32768, join_buffer_size = 128,"
                        + " tmp_table_size = 1024, max_heap_table_size = 16384", Servers.BOTH, null, null),
                new Hostile("SET SESSION optimizer_search_depth = 1, optimizer_prune_level = 0, eq_range_index_dive_limit = 1",
                        Servers.BOTH, null, null),
                new Hostile("SET SESSION optimizer_use_condition_selectivity = 1, in_predicate_conversion_threshold = 0,"
                        + " optimizer_max_sel_arg_weight = 1, join_cache_level = 0", Servers.MARIADB, null, null),
                new Hostile("SET SESSION range_optimizer_max_mem_size = 1", Servers.MYSQL, null, null));
    }

    /**
     * Each setting an operation's statements depend on, set to a hostile value in the editor's own
     * session before every call: a claim, a renewal, a decision and a sweep turn still work in full
     * (the turn taken, stuck sessions looked at, no sweep_failed), the history rows get the next ids,
     * and no transaction is left open after a call.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileSettings")
    void aHostileSessionSettingMakesNoOperationFailOrDoLess(Hostile hostile) throws Exception {
        boolean mariaDb = annDb.capabilities().mariaDb();
        assumeTrue(hostile.servers() == Servers.BOTH || (hostile.servers() == Servers.MARIADB) == mariaDb,
                "not a setting of this server");
        if (hostile.control() != null) {
            String shown;
            try (Connection owner = DriverManager.getConnection(db.endpoint().url(db.name()), db.endpoint().user(),
                    db.endpoint().password()); Statement s = owner.createStatement()) {
                s.execute(hostile.set());
                shown = hostile.control().run(s);
            } catch (SQLException e) {
                shown = "error: " + e.getMessage();
            }
            assertThat(shown).as("control: the value bites a plain statement (%s)", hostile.set())
                    .containsAnyOf(hostile.controlShows().split("\\|"));
        }
        long lastEvent = root.select(DSL.coalesce(DSL.max(LEASE_EVENT.ID), 0L)).from(LEASE_EVENT).fetchOne().value1();
        int decisions = root.fetchCount(DECISION);
        root.execute("update sweep_turn set due_at = '1970-01-01 00:00:00', sessions_due_at = '1970-01-01 00:00:00'");
        try (Connection c = attacks.session("sec_ann", "ann-secret-1"); Statement s = c.createStatement()) {
            Attacks.runs(s, hostile.set(), "CALL claim_articles(NULL, NULL, NULL, NULL, NULL)");
            assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sec_ann"))).as("claimed up to capacity").isEqualTo(2);
            String held = root.select(ARTICLE.ID, ARTICLE.LEASE_TOKEN).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("sec_ann"))
                    .orderBy(ARTICLE.ID).fetch().stream().map(r -> "[" + r.value1() + "," + r.value2() + "]")
                    .collect(Collectors.joining(",", "[", "]"));
            root.execute("update article set expires_at = expires_at - interval 60 second where locked_by = 'sec_ann'");
            Attacks.runs(s, hostile.set(), "CALL renew_leases(NULL, '" + held + "')");
            assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("sec_ann")
                    .and(ARTICLE.EXPIRES_AT.gt(ServerClock.plus(ServerClock.now(), Duration.ofMinutes(29))))))
                    .as("both leases renewed").isEqualTo(2);
            Record first = root.select(ARTICLE.ID, ARTICLE.LEASE_TOKEN).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("sec_ann"))
                    .orderBy(ARTICLE.ID).limit(1).fetchOne();
            Attacks.runs(s, hostile.set(), "CALL decide_article(NULL, " + first.get(ARTICLE.ID) + ", " + first.get(ARTICLE.LEASE_TOKEN)
                    + ", '" + UUID.randomUUID() + "', 'approve', 'fine')");
            assertThat(root.fetchCount(DECISION)).as("the decision recorded").isEqualTo(decisions + 1);
            assertThat(root.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(first.get(ARTICLE.ID)))).isEqualTo(ArticleStatus.approved);
            s.execute(hostile.set());
            Map<String, String> turn = sweepTurn(s);
            assertThat(turn).as("the sweep turn's answer").containsEntry("taken", "1").containsEntry("sessions_swept", "1")
                    .doesNotContainKey("sweep_failed");
            if (mariaDb) {
                assertThat(Attacks.runs(s, "SELECT @@in_transaction")).as("no transaction left open by the calls").isEqualTo("0");
            }
        }
        List<Long> newEvents = root.select(LEASE_EVENT.ID).from(LEASE_EVENT).where(LEASE_EVENT.ID.gt(lastEvent)).fetch(LEASE_EVENT.ID);
        assertThat(root.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("sec_ann").and(LEASE_EVENT.ID.le(lastEvent))))
                .as("no history row of ann's written under an id taken before").isZero();
        // (the fixtures delete history, so the counter may stand above the highest id left: ids are checked against each other)
        assertThat(newEvents).as("history rows under the next ids").isNotEmpty().allSatisfy(id -> assertThat(id).isGreaterThan(lastEvent));
        assertThat(newEvents.stream().mapToLong(Long::longValue).max().orElseThrow()
                - newEvents.stream().mapToLong(Long::longValue).min().orElseThrow())
                .as("history ids one after another: %s", newEvents).isLessThan(1_000L);
        attacks.noEffect(hostile.set() + " before a claim, a renewal, a decision and a sweep turn",
                "all went through in full; history ids in sequence");
    }

    /** One take_sweep_turn call's answer: the first row's columns, and sweep_failed when a result says so. */
    private static Map<String, String> sweepTurn(Statement s) throws SQLException {
        Map<String, String> answer = new HashMap<>();
        boolean isResult = s.execute("CALL take_sweep_turn(500)");
        boolean first = true;
        while (isResult || s.getUpdateCount() != -1) {
            if (isResult) {
                try (ResultSet rs = s.getResultSet()) {
                    java.sql.ResultSetMetaData meta = rs.getMetaData();
                    if (rs.next() && (first || "sweep_failed".equalsIgnoreCase(meta.getColumnLabel(1)))) {
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            answer.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getString(i));
                        }
                    }
                }
                first = false;
            }
            isResult = s.getMoreResults();
        }
        return answer;
    }

    @Test
    void anEditorReadsWhatTheEditorsWindowShowsAndNotTheOutboxOrTheRelay() {
        // V11: the outbox (with the receivers' answers), the feed and the relay's lease are for supervisors
        refused("read the outbox and the receivers' answers", () -> annRuns("SELECT last_answer FROM outcome_event"));
        refused("read the outcome feed", () -> annRuns("SELECT COUNT(*) FROM outcome_feed"));
        refused("read the relay's delivery lease and its token", () -> annRuns("SELECT lease_token FROM relay_lease"));
        refused("read the import quarantine", () -> annRuns("SELECT raw_text FROM import_quarantine"));
        assertThat(annRuns("SELECT COUNT(*) FROM article")).as("what the window shows").isNotNull();
        assertThat(annRuns("SELECT COUNT(*) FROM article_revision")).isNotNull();
        assertThat(annRuns("SELECT COUNT(*) FROM decision")).isNotNull();
        // the supervisor's Relay tab reads them
        assertThat(runs("sec_sue", "sue-secret-1", "SELECT COUNT(*) FROM outcome_event")).isNotNull();
        assertThat(runs("sec_sue", "sue-secret-1", "SELECT COUNT(*) FROM relay_lease")).isNotNull();
        assertThat(runs("sec_sue", "sue-secret-1", "SELECT COUNT(*) FROM outcome_feed")).isNotNull();
    }

    @Test
    void anEditorCannotReadOrWriteSomeoneElsesDrafts() {
        long id = bob.queue().claim("sec_bob").articles().get(0).id();
        bob.drafts().save(id, "sec_bob", Verdict.REJECT, "Bob's private doubts");

        assertThat(ann.drafts().load(id, "sec_ann")).isEmpty();
        refused("read another editor's draft through the API", () -> ann.drafts().load(id, "sec_bob"));
        assertThat(bob.drafts().load(id, "sec_bob")).get().extracting(Drafts.Draft::notes).isEqualTo("Bob's private doubts");
        assertThat(sue.drafts().load(id, "sec_bob")).isPresent(); // supervisors read everything
    }

    // --- the legitimate work goes through the same operations ---------------------------------

    @Test
    void theEditorsOwnWorkFlowsThroughTheOperations() {
        HeldArticle held = ann.queue().claim("sec_ann").articles().get(0);
        ann.drafts().save(held.id(), "sec_ann", Verdict.APPROVE, "fine");
        assertThat(ann.drafts().load(held.id(), "sec_ann")).isPresent();
        assertThat(ann.queue().renew("sec_ann", List.of(held)).renewed()).hasSize(1);
        Lease current = ann.queue().held("sec_ann").stream().filter(h -> h.id() == held.id()).findFirst().orElseThrow().lease();
        DecisionOutcome outcome = ann.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), current,
                Verdict.APPROVE, "fine"));
        assertThat(outcome).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(root.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(held.id()))).isEqualTo(ArticleStatus.approved);
        assertThat(ann.drafts().load(held.id(), "sec_ann")).as("the draft goes with the decision").isEmpty();
        assertThat(root.fetchValue(DECISION.EDITOR_ID, DECISION.ARTICLE_ID.eq(held.id()))).isEqualTo("sec_ann");
        HeldArticle second = ann.queue().held("sec_ann").get(0);
        assertThat(ann.decisions().submit(new DecisionRequest(UUID.randomUUID(), second.id(), second.lease(), Verdict.SEND_BACK,
                "check quotes"))).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(ann.queue().release(ann.queue().claim("sec_ann").articles().get(0))).isEmpty();
        // the release service in an editor's client may end expired leases of others, and only that
        bob.queue().claim("sec_bob");
        root.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.LOCKED_BY.eq("sec_bob")).execute();
        assertThat(ann.releaseService(l -> { }).runOnce()).isNotEmpty();
        assertThat(root.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.ACTOR.eq("sec_ann"))))
                .as("history names who freed them").isPositive();
    }

    @Test
    void aSupervisorCanForceReleaseReassignExtendAndRequeueButNotRewriteHistory() {
        HeldArticle bobs = bob.queue().claim("sec_bob").articles().get(0);
        assertThat(sue.supervision().forceRelease(bobs.id(), "sec_sue", "legal check")).isPresent();
        HeldArticle again = bob.queue().claim("sec_bob").articles().get(0);
        assertThat(sue.supervision().reassign(again.id(), "sec_ann", "sec_sue", true, "urgent").owner()).isEqualTo("sec_ann");
        assertThat(sue.supervision().extend(again.id(), Duration.ofHours(1), "sec_sue")).isPresent();
        HeldArticle q = bob.queue().claim("sec_bob").articles().get(0);
        bob.decisions().submit(new DecisionRequest(UUID.randomUUID(), q.id(), q.lease(), Verdict.UNREVIEWABLE, "garbled"));
        sue.quarantine().requeue(q.id(), "sec_sue", "Fixed title", null, "fixed");
        assertThat(root.fetchValue(ARTICLE.TITLE, ARTICLE.ID.eq(q.id()))).isEqualTo("Fixed title");
        assertThat(root.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("sec_sue"))).isGreaterThanOrEqualTo(4);

        refused("delete history as a supervisor", () -> runs("sec_sue", "sue-secret-1", "DELETE FROM lease_event"));
        refused("edit history as a supervisor", () -> runs("sec_sue", "sue-secret-1", "UPDATE lease_event SET detail = 'x'"));
        refused("purge as a supervisor", () -> sue.history().purgeOlderThan(Duration.ofSeconds(1)));
        refused("record a decision in an editor's name as a supervisor", () -> runs("sec_sue", "sue-secret-1",
                "INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token) VALUES ('"
                        + UUID.randomUUID() + "', " + q.id() + ", 'sec_bob', 'approve', '', 1)"));
        refused("reassign to a person who does not exist", () -> sue.supervision().reassign(again.id(), "nobody", "sec_sue", true, null));
        refused("reassign to nobody with raw SQL", () -> runs("sec_sue", "sue-secret-1",
                "CALL reassign_article(NULL, " + again.id() + ", 'nobody', 1, 0, NULL)"));
        refused("reassign as another supervisor", () -> runs("sec_sue", "sue-secret-1",
                "CALL reassign_article('sec_ann', " + again.id() + ", 'sec_bob', 1, 0, NULL)"));

        refused("write history in bob's name, backdated, as a supervisor", () -> runs("sec_sue", "sue-secret-1",
                "SET timestamp = UNIX_TIMESTAMP('2001-01-01')",
                "INSERT INTO lease_event (resource, row_key, action, actor, occurred_at) VALUES ('article', '1', 'import', 'sec_bob', '2001-01-01')"));
        refused("import an article by raw SQL as a supervisor", () -> runs("sec_sue", "sue-secret-1",
                "INSERT INTO article (external_id, desk_id, title, body) VALUES ('raw-1', 'news', 't', 'b')"));
        refused("requeue by raw SQL as a supervisor", () -> runs("sec_sue", "sue-secret-1",
                "UPDATE article SET status = 'queued' WHERE id = " + q.id()));
        refused("import as another supervisor", () -> runs("sec_sue", "sue-secret-1",
                "CALL import_articles('sec_adm', 'imp-x', 'x', '[]', '[]', 0)"));
        runs("sec_sue", "sue-secret-1", "SET timestamp = UNIX_TIMESTAMP('2001-01-01')",
                "CALL import_articles(NULL, 'imp-raw', 'raw.json', '[{\"line\": 1, \"external_id\": \"raw-2\", \"desk\": \"news\", "
                        + "\"title\": \"T\", \"body\": \"B\", \"priority\": 3}]', '[]', 0)");
        Record imported = root.selectFrom(LEASE_EVENT).orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne();
        assertThat(imported.get(LEASE_EVENT.ACTOR)).as("an import's history names who imported").isEqualTo("sec_sue");
        assertThat(imported.get(LEASE_EVENT.OCCURRED_AT).getYear()).as("at the server's real time").isGreaterThan(2020);
        attacks.saw("supervisor imports through import_articles with SET timestamp = 2001 -> history as sec_sue at the real time");
    }
}
