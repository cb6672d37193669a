package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.prefs.Preferences;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.SignIn;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TcpProxy;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Signing in while the server is down or frozen: the form says in words what it waits for, tries
 * again by itself, and gets in as soon as the server is back (before, "Cannot reach the database …"
 * stayed until the person pressed Sign in again, and a frozen server showed a spinner and no words).
 * The real sign-in of a person's account, through a proxy the test cuts and restores.
 */
@ExtendWith(DatabaseExtension.class)
class SignInWaitsForTheDatabaseTest {

    private static final String ANN = "siw_ann";
    private static final String PASSWORD = "sign-in-secret-1";

    private final TestDatabase db;
    private final DSLContext dsl;
    private final AccountAdministration accounts;
    private final ManualTicker ticker = new ManualTicker();
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/sign-in-waits-" + ProcessHandle.current().pid());
    private TcpProxy proxy;
    private SignInViewModel model;

    SignInWaitsForTheDatabaseTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.accounts = new AccountAdministration(dsl);
    }

    @BeforeEach
    void annAndAProxy() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        new ReviewSession(db.database(), ReviewSession.Options.defaults()).newsroom()
                .addEditor(ANN, "Ann Kowalski", Role.EDITOR, 3, List.of());
        accounts.createAccount(ANN, PASSWORD.toCharArray());
        proxy = new TcpProxy("127.0.0.1", db.endpoint().port());
    }

    @AfterEach
    void close() throws Exception {
        closeSession(model);
        proxy.close();
        accounts.dropAccount(ANN);
        prefs.removeNode();
    }

    private static void closeSession(SignInViewModel signedIn) {
        if (signedIn != null && signedIn.editorProperty().get() != null) {
            signedIn.start(s -> s.session().close());
        }
    }

    private SignInViewModel form(TaskExecutor tasks) {
        SignIn signIn = SignIn.to(db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name()), ANN)
                .reconnectingFor(Duration.ofMillis(300)); // each try gives up quickly; the form tries again
        SignInViewModel m = new SignInViewModel(signIn, tasks, ticker, prefs);
        m.passwordProperty().set(PASSWORD);
        return m;
    }

    @Test
    void aServerThatIsDownIsWaitedForInWordsAndTheSignInGoesThroughWhenItIsBack() {
        model = form(TaskExecutor.sameThread());
        model.signIn();
        assertThat(model.editorProperty().get()).as("the control: the honest path signs in").isNotNull();
        closeSession(model);

        model = form(TaskExecutor.sameThread());
        proxy.cut(); // the server is down
        model.signIn();

        String place = "127.0.0.1:" + proxy.port();
        assertThat(model.waitingProperty().get()).isEqualTo("Waiting for the database at " + place + "\u2026 (retrying)");
        assertThat(model.errorProperty().get()).as("not given up").isEmpty();
        assertThat(model.busyProperty().get()).isTrue();
        ticker.advance(Duration.ofSeconds(5)); // tries again, still down
        assertThat(model.editorProperty().get()).isNull();

        proxy.restore(); // the server is back
        ticker.advance(SignInViewModel.RETRY_AFTER);

        assertThat(model.editorProperty().get()).as("in, without pressing Sign in again").isNotNull();
        assertThat(model.waitingProperty().get()).isEmpty();
        assertThat(model.busyProperty().get()).isFalse();
    }

    @Test
    void theFormStopsTryingAfterItsBoundAndSaysWhy() {
        model = form(TaskExecutor.sameThread());
        model.keepTryingFor(Duration.ofSeconds(10)); // the app's is two minutes; each try here waits in real time
        proxy.cut();
        model.signIn();
        ticker.advance(Duration.ofSeconds(5));
        assertThat(model.busyProperty().get()).as("still trying").isTrue();

        ticker.advance(Duration.ofSeconds(10));

        assertThat(model.waitingProperty().get()).isEmpty();
        assertThat(model.busyProperty().get()).isFalse();
        assertThat(model.errorProperty().get()).as("the sign-in's own words").contains("the database at 127.0.0.1:" + proxy.port());
        ticker.advance(Duration.ofMinutes(1));
        assertThat(model.waitingProperty().get()).as("no more tries").isEmpty();
    }

    @Test
    void aTryTheServerDoesNotAnswerSaysWhatItWaitsFor() {
        TaskExecutor neverAnswers = new TaskExecutor() { // a frozen server: the try neither succeeds nor fails
            @Override
            public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
            }

            @Override
            public void onUiThread(Runnable update) {
                update.run();
            }
        };
        model = form(neverAnswers);
        model.signIn();
        assertThat(model.waitingProperty().get()).as("a quick answer needs no words").isEmpty();

        ticker.advance(SignInViewModel.SAY_WAITING_AFTER.plusSeconds(1));

        assertThat(model.waitingProperty().get()).isEqualTo("Waiting for the database at 127.0.0.1:" + proxy.port() + "\u2026");
        assertThat(model.busyProperty().get()).isTrue();
    }
}
