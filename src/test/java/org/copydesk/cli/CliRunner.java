package org.copydesk.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.testing.TestDatabase;

/**
 * Runs {@code copydesk} commands in-process against a test database, signed in as its owner with
 * the password in the environment (never on the command line), and reads what they print.
 */
final class CliRunner {

    /** What a command did: its exit code and what it printed. */
    record Run(int code, String out, String err) {

        /** Each line of stdout as one JSON value (a --json command prints one value per line). */
        List<JsonNode> json() {
            List<JsonNode> values = new ArrayList<>();
            for (String line : out.split("\\R")) {
                if (!line.isBlank()) {
                    try {
                        values.add(JSON.readTree(line));
                    } catch (IOException e) {
                        throw new UncheckedIOException("not one JSON value per line: " + line, e);
                    }
                }
            }
            return values;
        }

        JsonNode onlyJson() {
            List<JsonNode> values = json();
            if (values.size() != 1) {
                throw new AssertionError("expected one JSON value, got " + values.size() + ": " + out);
            }
            return values.get(0);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final TestDatabase db;
    private final String user;
    private final String password;

    CliRunner(TestDatabase db) {
        this(db, db.endpoint().user(), db.endpoint().password());
    }

    private CliRunner(TestDatabase db, String user, String password) {
        this.db = db;
        this.user = user;
        this.password = password;
    }

    /** The same, signed in as another database account. */
    CliRunner as(String otherUser, String otherPassword) {
        return new CliRunner(db, otherUser, otherPassword);
    }

    Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--help")) {
            all.addAll(List.of("--db-url", db.url(), "--db-user", user));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, password);
        int code = Cli.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), environment);
        return new Run(code, out.toString(), err.toString());
    }
}
