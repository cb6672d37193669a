package org.copydesk.review.outcomes;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.copydesk.review.Phrase;

/**
 * The webhook's signature, as Stripe-style receivers expect it: header
 * {@code Copydesk-Signature: t=UNIX_SECONDS,v1=HEX} where HEX is HMAC-SHA256 of
 * {@code UNIX_SECONDS + "." + body} under the shared secret. The time is signed too, so a receiver
 * can refuse an old request replayed by someone who recorded it.
 */
public final class WebhookSignature {

    public static final String HEADER = "Copydesk-Signature";

    private final byte[] secret;

    public WebhookSignature(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException(Phrase.of("review.relay.secretShort").text());
        }
        this.secret = secret.clone();
    }

    /** The header's value for {@code body} sent at {@code unixSeconds}. */
    public String header(long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + hmac(unixSeconds + "." + body);
    }

    /**
     * True if {@code header} signs {@code body} with this secret and its time lies within
     * {@code toleranceSeconds} of {@code nowSeconds} (what a receiver does; compared in constant time).
     */
    public boolean verifies(String header, String body, long nowSeconds, long toleranceSeconds) {
        if (header == null) {
            return false;
        }
        String t = null;
        String v1 = null;
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && kv[0].equals("t")) {
                t = kv[1];
            } else if (kv.length == 2 && kv[0].equals("v1")) {
                v1 = kv[1];
            }
        }
        if (t == null || v1 == null || !t.matches("\\d{1,12}")) {
            return false;
        }
        long sent = Long.parseLong(t);
        return Math.abs(nowSeconds - sent) <= toleranceSeconds
                && MessageDigest.isEqual(hmac(t + "." + body).getBytes(StandardCharsets.US_ASCII),
                        v1.getBytes(StandardCharsets.US_ASCII));
    }

    private String hmac(String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("This Java has no HmacSHA256", e);
        }
    }
}
