package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.review.outcomes.WebhookSignature;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code feed}, {@code relay status|retry}, {@code integrations}, and the relay's refusals, in-process. */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutcomeCommandsTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;

    OutcomeCommandsTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeAll
    void threeOutcomes() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 3, 3, -60);
        List<Verdict> verdicts = List.of(Verdict.APPROVE, Verdict.REJECT, Verdict.SEND_BACK);
        List<HeldArticle> held = session.queue().claim("ann").articles();
        for (int i = 0; i < 3; i++) {
            session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.get(i).id(), held.get(i).lease(),
                    verdicts.get(i), i == 0 ? "" : "Because, \"quoted\"\nand two lines"));
        }
    }

    record Run(int code, String out, String err) {
    }

    private Run run(String user, String password, Map<String, String> extra, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db-url", db.url(), "--db-user", user));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.remove("COPYDESK_RELAY_SECRET");
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, password);
        environment.putAll(extra);
        int code = Cli.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), environment);
        return new Run(code, out.toString(), err.toString());
    }

    private Run asOwner(String... args) {
        return run(db.endpoint().user(), db.endpoint().password(), Map.of(), args);
    }

    @Test
    void feedPrintsJsonLinesFromACursorAndTheSameAgain() {
        Run all = asOwner("feed", "--json");
        assertThat(all.code()).as(all.err()).isZero();
        List<String> lines = all.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"cursor\":").contains("\"outcome\":\"approved\"", "\"desk\":\"news\"",
                "\"editor\":\"ann\"", "\"verdict\":\"approve\"", "\"returns_at\":null");
        assertThat(lines.get(2)).contains("\"outcome\":\"changes_requested\"", "\"notes\":\"Because, \\\"quoted\\\"\\nand two lines\"");
        String first = cursorOf(lines.get(0));

        Run rest = asOwner("feed", "--json", "--since", first);
        assertThat(rest.out().lines().toList()).containsExactlyElementsOf(lines.subList(1, 3));
        assertThat(asOwner("feed", "--json", "--since", first).out()).isEqualTo(rest.out());

        Run text = asOwner("feed", "--since", first);
        assertThat(text.out()).contains("rejected  article", "changes_requested  article", "by ann: Because, \"quoted\" and two lines");
        assertThat(asOwner("feed", "--since", cursorOf(lines.get(2))).out()).contains("No outcomes after cursor");
        assertThat(asOwner("feed", "--since", "-1").err()).contains("A cursor is 0 or a number the feed printed.");
    }

    private static String cursorOf(String line) {
        Matcher m = Pattern.compile("\"cursor\":(\\d+)").matcher(line);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void aFeedReaderAccountReadsTheFeedAndNothingElse() {
        String name = "fr_" + ProcessHandle.current().pid() + "_cli";
        Run added = asOwner("integrations", "add", name, "--kind", "feed_reader");
        assertThat(added.code()).as(added.err()).isZero();
        Matcher m = Pattern.compile("its password is (\\S+) \\(shown once").matcher(added.out());
        assertThat(m.find()).as(added.out()).isTrue();
        String password = m.group(1);
        try {
            Run feed = run(name, password, Map.of(), "feed", "--json");
            assertThat(feed.code()).as(feed.err()).isZero();
            assertThat(feed.out().lines()).hasSize(3);
            Run status = run(name, password, Map.of(), "relay", "status");
            assertThat(status.code()).isEqualTo(1);
            assertThat(status.err()).startsWith("copydesk: ").doesNotContain("Exception"); // reads nothing but the feed
        } finally {
            assertThat(asOwner("integrations", "drop", name).code()).isZero();
        }
    }

    @Test
    void relayStatusAndRetryForSupervisors() {
        Run status = asOwner("relay", "status");
        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.out()).contains("Delivered 0, waiting 3, failed 0.", "No relay is running", "changes_requested");

        assertThat(asOwner("relay", "retry", "--all-failed").out()).contains("No outcome had failed.");
        long first = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).limit(1).fetchOne(OUTCOME_EVENT.ID);
        Run notFailed = asOwner("relay", "retry", Long.toString(first));
        assertThat(notFailed.code()).isEqualTo(1);
        assertThat(notFailed.err().strip()).isEqualTo("copydesk: This outcome event has not failed; only failed ones are sent again.");
        assertThat(asOwner("relay", "retry").err()).contains("Name one failed outcome by its cursor, or give --all-failed.");
    }

    /** The relay from the command line, once (as cron would run it), to a receiver that checks each request. */
    @Test
    void relayOnceDeliversEverythingDueSignedWithItsKeyAndStatusSaysSo(@TempDir Path dir) throws Exception {
        String secret = "cli-relay-secret-0123456789";
        Path secretFile = dir.resolve("relay.secret");
        Files.writeString(secretFile, secret + "\n");
        Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
        List<String> received = new CopyOnWriteArrayList<>();
        WebhookSignature signature =
                new WebhookSignature(secret.getBytes(StandardCharsets.UTF_8));
        com.sun.net.httpserver.HttpServer cms = com.sun.net.httpserver.HttpServer.create(
                new InetSocketAddress("127.0.0.1", 0), 0);
        cms.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            var headers = exchange.getRequestHeaders();
            boolean signed = signature.verifies(headers.getFirst("Copydesk-Signature"),
                    org.copydesk.review.outcomes.WebhookSignature.Signed.of(headers::getFirst, body),
                    System.currentTimeMillis() / 1000, 300);
            received.add(headers.getFirst("Idempotency-Key") + " " + headers.getFirst("Copydesk-Event") + " " + signed + " "
                    + headers.getFirst("Content-Type"));
            exchange.sendResponseHeaders(signed ? 204 : 401, -1);
            exchange.close();
        });
        cms.start();
        try {
            Run once = asOwner("relay", "--url", "http://127.0.0.1:" + cms.getAddress().getPort() + "/hook",
                    "--secret-file", secretFile.toString(), "--once");
            assertThat(once.code()).as(once.err()).isZero();
            assertThat(once.out()).contains("Delivered", "Made 3 delivery attempt(s).");
            List<String> keys = dsl.select(OUTCOME_EVENT.IDEMPOTENCY_KEY).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID)
                    .fetch(OUTCOME_EVENT.IDEMPOTENCY_KEY);
            assertThat(received).containsExactly(keys.get(0) + " approved true application/json; charset=utf-8",
                    keys.get(1) + " rejected true application/json; charset=utf-8",
                    keys.get(2) + " changes_requested true application/json; charset=utf-8");
            assertThat(asOwner("relay", "status").out()).contains("Delivered 3, waiting 0, failed 0.");
            assertThat(asOwner("relay", "--url", "http://127.0.0.1:" + cms.getAddress().getPort() + "/hook",
                    "--secret-file", secretFile.toString(), "--once").out()).contains("Nothing to deliver now.");
        } finally {
            cms.stop(0);
            dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.waiting)
                    .set(OUTCOME_EVENT.ATTEMPTS, 0).setNull(OUTCOME_EVENT.DELIVERED_AT).execute();
        }
    }

    @Test
    void theRelayRefusesToRunWithoutASecretOrWithOneOthersMayRead(@TempDir Path dir) throws Exception {
        Run noSecret = asOwner("relay", "--url", "http://127.0.0.1:9/hook");
        assertThat(noSecret.code()).isEqualTo(1);
        assertThat(noSecret.err()).contains("set COPYDESK_RELAY_SECRET or give --secret-file");

        Path shared = dir.resolve("secret");
        Files.writeString(shared, "a-long-enough-shared-secret");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r--r--"));
        Run readable = asOwner("relay", "--url", "http://127.0.0.1:9/hook", "--secret-file", shared.toString());
        assertThat(readable.code()).isEqualTo(1);
        assertThat(readable.err()).contains("may be read by others", "chmod 600");

        Run shortSecret = run(db.endpoint().user(), db.endpoint().password(), Map.of("COPYDESK_RELAY_SECRET", "short"),
                "relay", "--url", "http://127.0.0.1:9/hook");
        assertThat(shortSecret.err()).contains("too short");

        Run badUrl = run(db.endpoint().user(), db.endpoint().password(), Map.of("COPYDESK_RELAY_SECRET", "a-long-enough-shared-secret"),
                "relay", "--url", "ftp://cms.example/x");
        assertThat(badUrl.err()).contains("http or https address");
    }
}
