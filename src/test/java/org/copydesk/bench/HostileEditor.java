package org.copydesk.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The hostile editor of {@link HostileEditorSoak}: one editor account running every lock-out and
 * exhaustion technique we know, each on its own thread, over and over, reconnecting whenever it is
 * ended or refused; it counts what happened to each technique so the soak can say it was tried.
 */
final class HostileEditor {

    /**
     * What the hostile editor does. Each opens a session and runs its set-up statements; then either
     * holds what it got (a cheap statement every half second) until the sweep ends the session, or
     * runs its repeated statement over and over.
     */
    enum Technique {
        SERIALIZABLE_READS(hold("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE", "START TRANSACTION",
                "SELECT COUNT(*) FROM article", "SELECT COUNT(*) FROM lease_event", "SELECT COUNT(*) FROM decision")),
        SHARE_LOCKS(hold("START TRANSACTION", "SELECT id FROM article WHERE status = 'queued' LOCK IN SHARE MODE")),
        EXCLUSIVE_LOCKS(hold("START TRANSACTION", "SELECT id FROM article WHERE status = 'queued' FOR UPDATE")),
        /** Leaves a prepared XA transaction holding share locks behind, then a new one each round. */
        XA_ABANDONED(round -> List.of(String.format(Locale.ROOT, "XA START 'mallory-%d'", round),
                "SELECT id FROM article WHERE status = 'queued' LOCK IN SHARE MODE", "CALL record_presence(NULL)",
                String.format(Locale.ROOT, "XA END 'mallory-%d'", round), String.format(Locale.ROOT, "XA PREPARE 'mallory-%d'", round)),
                null, false),
        BUSY_WHILE_LOCKING(hold("START TRANSACTION", "SELECT id FROM editor LOCK IN SHARE MODE", "SELECT SLEEP(600)")),
        IDLE_TRANSACTION(hold("START TRANSACTION", "SELECT COUNT(*) FROM article_revision")),
        LONG_STATEMENT(hold("SELECT COUNT(*) FROM lease_event a, lease_event b, lease_event c")),
        /** A session setting that once made every sweep it took fail while still using up the turn. */
        SWEEP_SUPPRESSION(round -> List.of("SET SESSION max_join_size = 1", "SET SESSION sql_select_limit = 1"),
                () -> "CALL take_sweep_turn(50)", false),
        /** A metadata lock without a transaction: a schema change would wait behind it. */
        HANDLER_OPEN(hold("HANDLER article OPEN", "HANDLER article READ FIRST")),
        /** Large user variables, kept while idle: memory the server allocates for this session. */
        MEMORY(hold(IntStream.rangeClosed(1, 4).mapToObj(i -> "SET @v" + i + " = REPEAT('x', 60000000)").toArray(String[]::new))),
        /** As many prepared statements as the server allows in all (a server-wide count). */
        PREPARED_STATEMENTS(hold(IntStream.rangeClosed(1, 20_000).mapToObj(i -> "PREPARE s" + i + " FROM 'SELECT 1'")
                .toArray(String[]::new))),
        /** Made-up XA ids noted as fast as it can, a hundred a call. */
        XA_ID_FLOOD(round -> List.of(), HostileEditor::madeUpXaIds, false),
        CONNECTION_FLOOD(round -> List.of(), null, false),
        RECONNECT_LOOP(round -> List.of(), null, false);

        private final LongFunction<List<String>> setUp;
        private final Supplier<String> repeated;
        private final boolean holds;

        Technique(LongFunction<List<String>> setUp, Supplier<String> repeated, boolean holds) {
            this.setUp = setUp;
            this.repeated = repeated;
            this.holds = holds;
        }

        Technique(Technique.Shape shape) {
            this(shape.setUp, null, true);
        }

        /** A technique that runs these statements once and then holds what they got. */
        private record Shape(LongFunction<List<String>> setUp) {
        }

        private static Shape hold(String... statements) {
            List<String> fixed = List.of(statements);
            return new Shape(round -> fixed);
        }
    }

    private final String url;
    private final String account;
    private final String password;
    private final BooleanSupplier running;
    private final ConcurrentHashMap<String, AtomicLong> happened = new ConcurrentHashMap<>();

    HostileEditor(String url, String account, String password, BooleanSupplier running) {
        this.url = url;
        this.account = account;
        this.password = password;
        this.running = running;
    }

    /** What happened to each technique, and how often. */
    Map<String, AtomicLong> happened() {
        return happened;
    }

    void count(String what) {
        happened.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    /** Runs one technique until the soak ends. */
    void attack(Technique technique) {
        List<Connection> flood = new ArrayList<>();
        long round = 0;
        while (running.getAsBoolean()) {
            round++;
            try {
                switch (technique) {
                    case CONNECTION_FLOOD -> {
                        flood.add(connection());
                        count(technique + ": connections held");
                    }
                    case RECONNECT_LOOP -> {
                        connection().close();
                        count(technique + ": connections opened and closed");
                    }
                    default -> runInOneSession(technique, round);
                }
            } catch (SQLException e) {
                count(technique + ": " + refusal(e));
                if (technique == Technique.CONNECTION_FLOOD) {
                    closeAll(flood);
                }
                HostileEditorSoak.pause(technique == Technique.RECONNECT_LOOP ? 0 : 20);
            }
        }
        closeAll(flood);
    }

    private void runInOneSession(Technique technique, long round) throws SQLException {
        try (Connection c = connection(); Statement s = c.createStatement()) {
            for (String sql : technique.setUp.apply(round)) {
                s.execute(sql);
            }
            count(technique + ": set up");
            if (technique.repeated != null) {
                while (running.getAsBoolean()) {
                    s.execute(technique.repeated.get());
                    count(technique + ": calls that ran");
                    HostileEditorSoak.pause(10);
                }
            }
            // hold what it got until the sweep ends the session (or the soak ends)
            while (technique.holds && running.getAsBoolean()) {
                s.executeQuery("SELECT 1").close();
                HostileEditorSoak.pause(500);
            }
        }
    }

    private static String madeUpXaIds() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder ids = new StringBuilder("CALL note_prepared_xa('[");
        for (int i = 0; i < 100; i++) {
            ids.append(i == 0 ? "" : ",").append("\"1:").append(Long.toHexString(random.nextLong() & Long.MAX_VALUE)).append(":\"");
        }
        return ids.append("]')").toString();
    }

    private Connection connection() throws SQLException {
        return DriverManager.getConnection(url, account, password);
    }

    private static String refusal(SQLException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("locked") || m.contains("Locked")) {
            return "refused: account suspended";
        }
        if (m.contains("max_user_connections")) {
            return "refused: connection limit of the account";
        }
        if (m.contains("transaction of its own")) {
            return "refused: operation inside its XA transaction";
        }
        return "ended or refused: " + (m.length() > 60 ? m.substring(0, 60) : m);
    }

    private static void closeAll(List<Connection> connections) {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already ended
            }
        }
        connections.clear();
    }
}
