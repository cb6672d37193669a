package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.prefs.Preferences;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.SignIn;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Sign-in in two steps: the person's own database account (user name and password; the database
 * decides who they are), then the desks and stages they take work from ({@link WorkChoiceModel},
 * kept by the database, ticked as last time; nothing ticked: everything they may work). Someone
 * with one desk and no stages is not asked. A supervisor skips the second step: they go straight
 * to the dashboard, with the desks they chose last time (all of theirs the first time), and take
 * work only when they choose to review.
 *
 * <p>A sign-in that cannot reach the database (stopped, restarting, frozen) goes on trying by
 * itself while the form waits, for {@link #KEEP_TRYING_FOR}, and says so in words ("Waiting for the
 * database at host:port … (retrying)"): it gets in as soon as the server is back, without the person
 * pressing Sign in again; a try the server does not answer says so after {@link #SAY_WAITING_AFTER}.
 */
public final class SignInViewModel {

    /** The outcome of signing in: the person's own session, who they are, and today's desks. */
    public record SignedIn(ReviewSession session, Editor editor, List<String> desks) {
    }

    /** How long a sign-in that cannot reach the database goes on trying by itself. */
    public static final Duration KEEP_TRYING_FOR = Duration.ofMinutes(2);
    /** The pause between a try that could not reach the database and the next. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(2);
    /** A try unanswered this long is said to be waiting (a frozen server answers nothing for a minute). */
    public static final Duration SAY_WAITING_AFTER = Duration.ofSeconds(2);

    private SignIn signIn;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Preferences prefs;
    private final StringProperty user = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final StringProperty error = new SimpleStringProperty("");
    private final ObjectProperty<Editor> editor = new SimpleObjectProperty<>();
    private final ObjectProperty<WorkChoiceModel> work = new SimpleObjectProperty<>();
    private final BooleanProperty ready = new SimpleBooleanProperty();
    private final BooleanProperty straightIn = new SimpleBooleanProperty();
    private final StringProperty where = new SimpleStringProperty(Messages.text("signIn.preparing"));
    private final StringProperty demoHint = new SimpleStringProperty("");
    private final StringProperty waiting = new SimpleStringProperty("");
    private final BooleanBinding canSignIn;
    private ReviewSession session;
    private boolean signInWhenReady;
    /** Ticks while a sign-in is under way: says it waits, starts the next try. */
    private AutoCloseable clock;
    private long firstTryNanos;
    private long tryStartedNanos;
    /** When the next try starts, or -1 while a try is under way or none is due. */
    private long nextTryNanos = -1;
    private Duration keepTryingFor = KEEP_TRYING_FOR;

    /** As {@link #SignInViewModel(SignIn, TaskExecutor, Ticker, Preferences)} on the FX thread's clock. */
    public SignInViewModel(SignIn signIn, TaskExecutor tasks, Preferences prefs) {
        this(signIn, tasks, new FxTicker(), prefs);
    }

    /**
     * @param signIn the prepared sign-in, or null while the database is still being prepared
     *               (the form is usable at once; {@link #prepared} arrives later)
     * @param ticker measures the waits and paces the tries again (a manual one in tests)
     */
    public SignInViewModel(SignIn signIn, TaskExecutor tasks, Ticker ticker, Preferences prefs) {
        this.tasks = tasks;
        this.ticker = ticker;
        this.prefs = prefs;
        user.set(SignInChoice.load(prefs).lastEditor());
        canSignIn = Bindings.createBooleanBinding(() -> !user.get().isBlank() && !busy.get() && editor.get() == null, user, busy, editor);
        if (signIn != null) {
            prepared(signIn);
        }
    }

    /** What the form says while the database is being prepared. */
    public void preparing(String what) {
        if (!ready.get()) {
            where.set(what);
        }
    }

    /** The database is ready for sign-in. A sign-in asked for meanwhile goes ahead now. */
    public void prepared(SignIn prepared) {
        this.signIn = prepared;
        if (!prepared.suggestedUser().isBlank()) {
            user.set(prepared.suggestedUser());
        }
        prepared.configuredPassword().ifPresent(p -> password.set(new String(p)));
        where.set(Messages.text("signIn.database", prepared.where()));
        demoHint.set(hintFor(prepared));
        ready.set(true);
        if (signInWhenReady) {
            signInWhenReady = false;
            busy.set(false);
            signIn();
        }
    }

    /** Step one: signs in with the account; on success shows the person's desks. */
    public void signIn() {
        if (!canSignIn.get()) {
            return;
        }
        if (!ready.get()) {
            signInWhenReady = true; // the form was filled faster than the database was prepared
            busy.set(true);
            return;
        }
        busy.set(true);
        error.set("");
        firstTryNanos = ticker.nanoTime();
        if (clock == null) {
            clock = ticker.every(Duration.ofMillis(500), this::tick);
        }
        tryOnce();
    }

    private void tryOnce() {
        tryStartedNanos = ticker.nanoTime();
        nextTryNanos = -1;
        String name = user.get().strip();
        char[] secret = password.get().toCharArray();
        tasks.run("sign in", () -> signIn.signIn(name, secret), opened -> {
            Arrays.fill(secret, ' ');
            stopTrying();
            busy.set(false);
            password.set("");
            session = opened.session();
            Editor who = opened.editor();
            if (who.role().canSupervise()) {
                editor.set(who);
                straightIn.set(true);
                return;
            }
            WorkChoiceModel choice = new WorkChoiceModel(session, tasks, who.id());
            work.set(choice);
            busy.set(true); // signed in, the choices still being read: not a second sign-in meanwhile
            choice.load(read -> {
                busy.set(false);
                editor.set(who);
                straightIn.set(read && !choice.asks()); // one desk and no stages: no question, no click
            });
        }, failure -> {
            Arrays.fill(secret, ' ');
            long now = ticker.nanoTime();
            if (ConnectionTrouble.isConnectionLost(failure) && now - firstTryNanos < keepTryingFor.toNanos()) {
                waiting.set(Messages.text("signIn.waitingRetrying", place()));
                nextTryNanos = now + RETRY_AFTER.toNanos();
                return;
            }
            stopTrying();
            busy.set(false);
            error.set(ConnectionTrouble.describe(failure));
        });
    }

    /** A shorter bound than {@link #KEEP_TRYING_FOR} (tests: every try waits for the network in real time). */
    void keepTryingFor(Duration bound) {
        this.keepTryingFor = bound;
    }

    private void tick() {
        long now = ticker.nanoTime();
        if (nextTryNanos >= 0 && now >= nextTryNanos) {
            tryOnce();
        } else if (nextTryNanos < 0 && waiting.get().isEmpty() && now - tryStartedNanos >= SAY_WAITING_AFTER.toNanos()) {
            waiting.set(Messages.text("signIn.waiting", place()));
        }
    }

    private void stopTrying() {
        waiting.set("");
        nextTryNanos = -1;
        if (clock != null) {
            try {
                clock.close();
            } catch (Exception ignored) {
                // stopping a timer cannot fail in a way worth reporting
            }
            clock = null;
        }
    }

    /** "the database at db.example.org:3306", or the embedded one's words. */
    private String place() {
        String where = signIn.where();
        if (!where.startsWith("jdbc:")) {
            return where;
        }
        String hostAndPort = where.replaceFirst("^jdbc:[a-z]+:(?:[a-z]+:)?//", "").replaceFirst("/.*", "").replaceFirst("^.*@", "");
        return Messages.text("signIn.databaseAt", hostAndPort);
    }

    /**
     * Step two: keeps the ticks as the person's choice and starts work (a supervisor: on the desks
     * chosen last time on this PC). The window is given every desk the person may work; the
     * database's choice narrows what their claims take.
     */
    public void start(Consumer<SignedIn> onSignedIn) {
        Editor who = editor.get();
        if (who == null || (work.get() != null && work.get().busyProperty().get())) {
            return;
        }
        WorkChoiceModel choice = work.get();
        error.set("");
        if (choice == null) {
            List<String> remembered = SignInChoice.desksOf(prefs, who.id());
            List<String> desks = remembered == null ? who.desks() : who.desks().stream().filter(remembered::contains).toList();
            signedIn(onSignedIn, who, desks.isEmpty() ? who.desks() : desks);
        } else if (!choice.asks()) {
            signedIn(onSignedIn, who, choice.desks().isEmpty() ? who.desks() : choice.desks());
        } else {
            choice.save(desks -> signedIn(onSignedIn, who, desks));
        }
    }

    private void signedIn(Consumer<SignedIn> onSignedIn, Editor who, List<String> desks) {
        new SignInChoice(who.id()).save(prefs);
        onSignedIn.accept(new SignedIn(session, who, desks));
    }

    private static String hintFor(SignIn prepared) {
        return demoHint(prepared.demoAccounts());
    }

    /**
     * The hint for the demo accounts, or empty when there are none: a team's server (started by
     * {@code copydesk server}) is embedded too but has no demo accounts, and "Demo accounts: ." told
     * its people nothing.
     */
    static String demoHint(List<String> demoAccounts) {
        return demoAccounts.isEmpty() ? ""
                : Messages.text("signIn.demoHint", String.join(", ", demoAccounts), DemoNewsroom.demoPassword("ann"));
    }

    /** A hint for the embedded server's demo accounts, or empty. */
    public ReadOnlyStringProperty demoHintProperty() {
        return demoHint;
    }

    /** "Waiting for the database at host:port … (retrying)" while a sign-in waits for it; empty otherwise. */
    public ReadOnlyStringProperty waitingProperty() {
        return waiting;
    }

    /** Where the database is ("Preparing the database…" until it is ready). */
    public ReadOnlyStringProperty whereProperty() {
        return where;
    }

    /** True once a supervisor has signed in: the view then starts without showing the desks (see {@link #start}). */
    public ReadOnlyBooleanProperty straightInProperty() {
        return straightIn;
    }

    public ReadOnlyBooleanProperty readyProperty() {
        return ready;
    }

    public StringProperty userProperty() {
        return user;
    }

    public StringProperty passwordProperty() {
        return password;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public ReadOnlyObjectProperty<Editor> editorProperty() {
        return editor;
    }

    /** The desks and stages to choose from, once an editor (not a supervisor) has signed in. */
    public ReadOnlyObjectProperty<WorkChoiceModel> workProperty() {
        return work;
    }

    public BooleanBinding canSignInProperty() {
        return canSignIn;
    }
}
