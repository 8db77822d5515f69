package io.ticketing.reservations.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * What the service signs for a browser to carry and gives back (an admission, a buyer the shop vouches for):
 * {@code base64url(payload) "." base64url(HMAC-SHA256)}, checked with no database read. Each purpose has its own key:
 * one drawn once and kept in the database, so every replica signs alike without configuration.
 */
@ApplicationScoped
public class SigningKeys {

    private static final String STORE_KEY = """
            INSERT INTO service_secrets (name, value) VALUES (:name, :value) ON CONFLICT (name) DO NOTHING""";
    private static final String READ_KEY = "SELECT value FROM service_secrets WHERE name = :name";
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final Jdbc jdbc;
    private final Map<String, SecretKeySpec> keys = new ConcurrentHashMap<>();

    SigningKeys(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** {@code payload}, signed with the key named {@code purpose} ({@code secret}, when given, is that key). */
    public String sign(String purpose, Optional<String> secret, String payload) {
        return BASE64.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "."
                + BASE64.encodeToString(mac(key(purpose, secret), payload));
    }

    /** The payload of {@code token} if the key named {@code purpose} signed it. */
    public Optional<String> payload(String purpose, Optional<String> secret, String token) {
        int dot = token == null ? -1 : token.indexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        try {
            String payload = new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8);
            // Compared whole with the token this key writes for the payload: base64 leaves some bits of a last
            // character unused, so another text can decode to the same bytes, and must not pass for the one issued.
            return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                    sign(purpose, secret, payload).getBytes(StandardCharsets.UTF_8))
                            ? Optional.of(payload)
                            : Optional.empty();
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    private static byte[] mac(SecretKeySpec key, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    private SecretKeySpec key(String purpose, Optional<String> secret) {
        return keys.computeIfAbsent(purpose, name -> new SecretKeySpec(
                secret.map(value -> value.getBytes(StandardCharsets.UTF_8)).orElseGet(() -> sharedSecret(name)),
                "HmacSHA256"));
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    byte[] sharedSecret(String name) {
        byte[] drawn = new byte[32];
        new SecureRandom().nextBytes(drawn);
        jdbc.statement(STORE_KEY).set("name", name).set("value", drawn).update();
        return jdbc.statement(READ_KEY).set("name", name).list(row -> row.getBytes(1)).get(0);
    }
}
