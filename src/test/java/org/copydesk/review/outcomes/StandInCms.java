package org.copydesk.review.outcomes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A newsroom CMS's webhook receiver, as the integration guide tells one to write it: checks the
 * signature, keeps the idempotency keys it has processed (a repeated key is answered 200 and not
 * processed again). It misbehaves on purpose by a fixed plan: some requests get a 500 before being
 * processed, some are processed and then answered too late (the sender's timeout), some processed
 * and the connection dropped without an answer; and it can go away and come back on the same port.
 */
final class StandInCms implements AutoCloseable {

    /** One outcome processed (first time its key arrived). */
    record Processed(String key, long articleId, long cursor) {
    }

    private static final Pattern ARTICLE = Pattern.compile("\"article_id\":(\\d+)");
    private static final Pattern CURSOR = Pattern.compile("\"cursor\":(\\d+)");

    private final WebhookSignature signature;
    private final long slowMillis;
    private final boolean misbehave;
    private final Map<String, Processed> processed = new LinkedHashMap<>();
    private final List<Processed> inOrder = new ArrayList<>();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger failedOnPurpose = new AtomicInteger();
    final AtomicInteger answeredLate = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();
    final AtomicInteger badSignatures = new AtomicInteger();
    private volatile int alwaysAnswer;
    private final int port;
    private HttpServer server;

    StandInCms(WebhookSignature signature, long slowMillis, boolean misbehave) throws IOException {
        this.signature = signature;
        this.slowMillis = slowMillis;
        this.misbehave = misbehave;
        this.server = start(0);
        this.port = server.getAddress().getPort();
    }

    private HttpServer start(int onPort) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", onPort), 0);
        s.createContext("/hooks/copydesk", this::handle);
        s.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        s.start();
        return s;
    }

    java.net.URI url() {
        return java.net.URI.create("http://127.0.0.1:" + port + "/hooks/copydesk");
    }

    /** The receiver goes away (connections refused) ... */
    synchronized void goAway() {
        server.stop(0);
    }

    /** ... and comes back on the same address. */
    synchronized void comeBack() throws IOException {
        server = start(port);
    }

    /** From now on every request is answered with this status (0: the plan as usual). */
    void alwaysAnswer(int status) {
        alwaysAnswer = status;
    }

    synchronized List<Processed> processedInOrder() {
        return List.copyOf(inOrder);
    }

    private void handle(HttpExchange exchange) throws IOException {
        int n = requests.incrementAndGet();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (!signature.verifies(exchange.getRequestHeaders().getFirst(WebhookSignature.HEADER),
                WebhookSignature.Signed.of(exchange.getRequestHeaders()::getFirst, body), System.currentTimeMillis() / 1000, 300)) {
            badSignatures.incrementAndGet();
            answer(exchange, 401, "bad signature");
            return;
        }
        if (alwaysAnswer != 0) {
            answer(exchange, alwaysAnswer, "busy");
            return;
        }
        if (misbehave && n % 5 == 1) {
            failedOnPurpose.incrementAndGet();
            answer(exchange, 500, "database locked");
            return;
        }
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        boolean fresh = process(key, body);
        if (misbehave && fresh && n % 7 == 3) {
            answeredLate.incrementAndGet();
            sleep(slowMillis);
            answer(exchange, 200, "ok, late");
            return;
        }
        if (misbehave && fresh && n % 6 == 2) {
            dropped.incrementAndGet();
            exchange.close(); // processed, but the sender never hears so
            return;
        }
        answer(exchange, 200, fresh ? "ok" : "seen before");
    }

    private synchronized boolean process(String key, String body) {
        if (processed.containsKey(key)) {
            duplicates.incrementAndGet();
            return false;
        }
        Processed p = new Processed(key, number(ARTICLE, body), number(CURSOR, body));
        processed.put(key, p);
        inOrder.add(p);
        return true;
    }

    private static long number(Pattern p, String body) {
        Matcher m = p.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("no " + p + " in " + body);
        }
        return Long.parseLong(m.group(1));
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        server.stop(0);
    }
}
