package io.ticketing.reservations.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature: HMAC-SHA256 with the decoded secret over {@code id.timestamp.body},
 * sent as {@code v1,<base64>}. A receiver computes the same and compares in constant time.
 */
public final class WebhookSignature {

    static final String PREFIX = "whsec_";

    private final byte[] key;

    public WebhookSignature(String secret) {
        if (secret == null || !secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException("WEBHOOK_SECRET must be 'whsec_' followed by base64");
        }
        this.key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
    }

    public String sign(String id, long timestampSeconds, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
