package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook's signature covers the time and every header a receiver acts on: a request replayed
 * within the tolerance with a fresh {@code Idempotency-Key} (to pass the receiver's de-duplication),
 * a swapped event or cursor, a changed body and a stale time all fail, in Java and in the Python
 * receiver docs/integration.md gives integrators.
 */
class WebhookSignatureTest {

    private static final byte[] SECRET = "whsec-example-0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final long SENT = 1_795_443_430L;
    private static final String KEY = "5b0c8f0e-6a53-4a57-9d0b-0f6b7f3f1c2a";
    private static final String BODY =
            "{\"cursor\":41,\"idempotency_key\":\"5b0c8f0e-6a53-4a57-9d0b-0f6b7f3f1c2a\",\"outcome\":\"changes_requested\"}";
    private static final WebhookSignature.Signed GENUINE = new WebhookSignature.Signed(KEY, "changes_requested", "41", BODY);

    private final WebhookSignature signature = new WebhookSignature(SECRET);

    @Test
    void theDocumentedExampleHasTheDocumentedSignature() throws IOException {
        String header = signature.header(SENT, GENUINE);
        assertThat(header).isEqualTo("t=1795443430,v2=6681e4c43cbd9ea3f051e195664f402c3602589279caede8f1c8b408f6e7450a");
        assertThat(integrationGuide()).contains(header.substring(header.indexOf("v2=") + 3), "whsec-example-0123456789abcdef");
    }

    @Test
    void aReplayWithAFreshKeyASwappedHeaderAChangedBodyOrAStaleTimeFails() {
        String header = signature.header(SENT, GENUINE);
        assertThat(signature.verifies(header, GENUINE, SENT + 299, 300)).as("the genuine request").isTrue();
        assertThat(signature.verifies(header, new WebhookSignature.Signed("9d3e-fresh-key", "changes_requested", "41", BODY),
                SENT + 10, 300)).as("replayed at once with a fresh Idempotency-Key").isFalse();
        assertThat(signature.verifies(header, new WebhookSignature.Signed(KEY, "approved", "41", BODY), SENT, 300))
                .as("another event named").isFalse();
        assertThat(signature.verifies(header, new WebhookSignature.Signed(KEY, "changes_requested", "42", BODY), SENT, 300))
                .as("another cursor named").isFalse();
        assertThat(signature.verifies(header, new WebhookSignature.Signed(KEY, "changes_requested", "41", BODY.replace("41", "40")),
                SENT, 300)).as("a changed body").isFalse();
        assertThat(signature.verifies(header, GENUINE, SENT + 301, 300)).as("replayed after the tolerance").isFalse();
        assertThat(signature.verifies(header.replace("v2=", "v1="), GENUINE, SENT, 300)).as("the old scheme's name").isFalse();
        assertThat(signature.verifies(header, new WebhookSignature.Signed(KEY + "\n", "changes_requested", "41", BODY), SENT, 300))
                .as("a line break smuggled into a header").isFalse();
        assertThat(new WebhookSignature("another-secret-0123456789".getBytes(StandardCharsets.UTF_8))
                .verifies(header, GENUINE, SENT, 300)).as("another secret").isFalse();
    }

    @Test
    void thePythonReceiverInTheGuideAcceptsTheRelaysRequestAndRefusesReplays(@TempDir Path dir) throws Exception {
        assumeThat(python3Available()).as("python3 on the PATH").isTrue();
        Path receiver = dir.resolve("receiver.py");
        Files.writeString(receiver, pythonExample() + """

                import json, sys
                case = json.load(sys.stdin)
                print(verify(case["secret"].encode(), case["headers"], case["body"].encode(), now=case["now"]))
                """);
        String header = signature.header(SENT, GENUINE);
        assertThat(python(receiver, header, GENUINE, SENT + 5)).as("the genuine request").isEqualTo("True");
        assertThat(python(receiver, header, new WebhookSignature.Signed("fresh-key-1", "changes_requested", "41", BODY), SENT + 5))
                .as("replay with a fresh key").isEqualTo("False");
        assertThat(python(receiver, header, new WebhookSignature.Signed(KEY, "approved", "41", BODY), SENT + 5))
                .as("swapped event").isEqualTo("False");
        assertThat(python(receiver, header, new WebhookSignature.Signed(KEY, "changes_requested", "41", BODY + " "), SENT + 5))
                .as("changed body").isEqualTo("False");
        assertThat(python(receiver, header, GENUINE, SENT + 600)).as("stale").isEqualTo("False");
    }

    private static String python(Path receiver, String header, WebhookSignature.Signed request, long now) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(WebhookSignature.HEADER, header);
        headers.put(WebhookSignature.IDEMPOTENCY_KEY, request.idempotencyKey());
        headers.put(WebhookSignature.EVENT, request.event());
        headers.put(WebhookSignature.CURSOR, request.cursor());
        StringBuilder json = new StringBuilder("{\"secret\": ").append(quoted(new String(SECRET, StandardCharsets.UTF_8)))
                .append(", \"now\": ").append(now).append(", \"body\": ").append(quoted(request.body())).append(", \"headers\": {");
        headers.forEach((k, v) -> json.append(quoted(k)).append(": ").append(quoted(v)).append(", "));
        json.setLength(json.length() - 2);
        json.append("}}");
        Process p = new ProcessBuilder("python3", receiver.toString()).redirectErrorStream(true).start();
        p.getOutputStream().write(json.toString().getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private static String quoted(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static boolean python3Available() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String integrationGuide() throws IOException {
        return Files.readString(Path.of("docs/integration.md"), StandardCharsets.UTF_8);
    }

    /** The receiver's code block of the guide's signature section, as integrators copy it. */
    private static String pythonExample() throws IOException {
        String guide = integrationGuide();
        int section = guide.indexOf("### The secret and the signature");
        int start = guide.indexOf("```python\n", section) + "```python\n".length();
        return guide.substring(start, guide.indexOf("\n```", start));
    }
}
