package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.EDITOR;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The calls an untouched window makes on its own (the list watch, presence, the newsroom's sweep
 * turn) go without the pool's check of the connection (a ping), and a connection the server ended
 * meanwhile is still replaced without the caller seeing an error: the call runs again on a fresh
 * one. Anything else (an editor's key or click) still has its connection checked first. Each test
 * ends the window's one connection from the server's side, waits past the pool's half second
 * without a check, and makes one call: a retry counted on a fresh connection shows that no ping
 * went first (the pool would have replaced the connection unseen), and the call's answer that the
 * editor was not bothered.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WatchingWithoutPingsTest {

    private static final String EDITOR_ID = "wp_editor";
    private static final String PASSWORD = "watching-1-Without";

    private final TestDatabase db;
    private final DSLContext root;
    private Database window;
    private ReviewSession session;

    WatchingWithoutPingsTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
    }

    @BeforeAll
    void account() {
        Newsroom newsroom = new Newsroom(root);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addEditor(EDITOR_ID, "Watcher", Role.EDITOR, 5, List.of("news"));
        new AccountAdministration(root).createAccount(EDITOR_ID, PASSWORD.toCharArray());
        Fixtures.articles(root, "news", 3, 3, -60);
    }

    @AfterAll
    void dropAccount() {
        new AccountAdministration(root).dropAccount(EDITOR_ID);
    }

    @BeforeEach
    void signIn() {
        // one connection, as an untouched window holds
        window = Database.open(db.url(), EDITOR_ID, PASSWORD.toCharArray(), null,
                new DataSources.PoolSize(1, 1, DataSources.PoolSize.DESKTOP_IDLE_TIMEOUT), Database.SchemaAction.NONE, null);
        session = new ReviewSession(window, ReviewSession.Options.defaults());
    }

    @AfterEach
    void signOut() {
        window.close();
    }

    @Test
    void theListWatchFindingItsConnectionEndedReadsOnAFreshOneUnseen() throws Exception {
        endTheWindowsConnection();

        ListWatch.Snapshot snapshot = session.listWatch().read(EDITOR_ID, List.of("news"));

        assertThat(snapshot.waiting()).hasSize(3);
        assertThat(session.retryMetrics().reconnects()).as("run again on a fresh connection: no ping went first").isEqualTo(1);
    }

    @Test
    void presenceFindingItsConnectionEndedIsRecordedOnAFreshOneUnseen() throws Exception {
        root.update(EDITOR).setNull(EDITOR.LAST_SEEN_AT).where(EDITOR.ID.eq(EDITOR_ID)).execute();
        endTheWindowsConnection();

        session.queue().recordPresence(EDITOR_ID);

        assertThat(root.select(EDITOR.LAST_SEEN_AT).from(EDITOR).where(EDITOR.ID.eq(EDITOR_ID)).fetchOne(0, LocalDateTime.class))
                .isNotNull();
        assertThat(session.retryMetrics().reconnects()).as("run again on a fresh connection: no ping went first").isEqualTo(1);
    }

    @Test
    void theSweepTurnFindingItsConnectionEndedIsAskedOnAFreshOneUnseen() throws Exception {
        endTheWindowsConnection();

        try (ReleaseService release = session.releaseService(released -> { })) {
            release.runTurn();
        }

        assertThat(session.retryMetrics().reconnects()).as("run again on a fresh connection: no ping went first").isEqualTo(1);
    }

    @Test
    void anEditorsOwnCallStillHasItsConnectionCheckedFirst() throws Exception {
        endTheWindowsConnection();

        // a plain read with no retry of its own: it works only because the pool checked and replaced the connection
        assertThat(session.queue().held(EDITOR_ID)).isEmpty();
        assertThat(session.retryMetrics().reconnects()).isZero();
        // and the window's next quiet call, on the connection the check opened, needs no retry either
        assertThat(session.listWatch().read(EDITOR_ID, List.of("news")).waiting()).hasSize(3);
        assertThat(session.retryMetrics().reconnects()).isZero();
    }

    /** Ends the window's one connection from the server's side and waits past the pool's half second without a check. */
    private void endTheWindowsConnection() throws InterruptedException {
        long id = window.dsl().fetchOne("select connection_id()").get(0, Long.class);
        root.execute("kill connection " + id);
        Thread.sleep(800);
    }
}
