package org.copydesk.review.outcomes;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.copydesk.review.Phrase;

/**
 * The webhook's signature: header {@code Copydesk-Signature: t=UNIX_SECONDS,v2=HEX}, where HEX is
 * HMAC-SHA256, under the shared secret, of the time and of every header a receiver acts on, each
 * on a line of its own, then the body:
 *
 * <pre>UNIX_SECONDS \n Idempotency-Key \n Copydesk-Event \n Copydesk-Cursor \n body</pre>
 *
 * <p>The time is signed, so a receiver refuses a recorded request replayed later; the
 * {@code Idempotency-Key} is signed, so a request replayed within the tolerance with a fresh key
 * (to get past the receiver's de-duplication) no longer verifies; the event and cursor are signed,
 * so neither can be swapped for another. No header value can hold a line break, so the lines cannot
 * be shifted into one another. (The first version signed only the time and the body: "v1".)
 */
public final class WebhookSignature {

    public static final String HEADER = "Copydesk-Signature";
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    public static final String EVENT = "Copydesk-Event";
    public static final String CURSOR = "Copydesk-Cursor";

    /** What is signed besides the time: the headers a receiver relies on, and the raw body. */
    public record Signed(String idempotencyKey, String event, String cursor, String body) {

        /** The parts as a receiver finds them: {@code header} looks a request header up by name. */
        public static Signed of(Function<String, String> header, String body) {
            return new Signed(header.apply(IDEMPOTENCY_KEY), header.apply(EVENT), header.apply(CURSOR), body);
        }

        private boolean complete() {
            return idempotencyKey != null && event != null && cursor != null && body != null
                    && oneLine(idempotencyKey) && oneLine(event) && oneLine(cursor);
        }

        private static boolean oneLine(String value) {
            return value.indexOf('\n') < 0 && value.indexOf('\r') < 0;
        }
    }

    private final byte[] secret;

    public WebhookSignature(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretShort").text());
        }
        this.secret = secret.clone();
    }

    /** The header's value for {@code request} sent at {@code unixSeconds}. */
    public String header(long unixSeconds, Signed request) {
        if (!request.complete()) {
            throw new IllegalStateException("a bug: a signed request names its key, event and cursor, each on one line");
        }
        return "t=" + unixSeconds + ",v2=" + hmac(Long.toString(unixSeconds), request);
    }

    /**
     * True if {@code header} signs {@code request} with this secret and its time lies within
     * {@code toleranceSeconds} of {@code nowSeconds}: what a receiver checks before it looks at the
     * key (compared in constant time).
     */
    public boolean verifies(String header, Signed request, long nowSeconds, long toleranceSeconds) {
        if (header == null || request == null || !request.complete()) {
            return false;
        }
        String t = null;
        String v2 = null;
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v2")) {
                v2 = kv[1];
            }
        }
        if (t == null || v2 == null || !t.matches("\\d{1,12}")) {
            return false;
        }
        long sent = Long.parseLong(t);
        return Math.abs(nowSeconds - sent) <= toleranceSeconds
                && MessageDigest.isEqual(hmac(t, request).getBytes(StandardCharsets.US_ASCII),
                        v2.getBytes(StandardCharsets.US_ASCII));
    }

    private String hmac(String time, Signed request) {
        String signed = time + "\n" + request.idempotencyKey() + "\n" + request.event() + "\n" + request.cursor() + "\n"
                + request.body();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("This Java has no HmacSHA256", e);
        }
    }
}
