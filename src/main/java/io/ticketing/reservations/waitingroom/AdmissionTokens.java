package io.ticketing.reservations.waitingroom;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.jdbc.Jdbc;

/**
 * Admission tokens: {@code base64url(event:ticket:expiry) "." base64url(HMAC-SHA256)}. Checking one needs no
 * database read, so the cart endpoints stay as fast with the room on. The key is {@code waiting-room.token-secret}
 * when set; otherwise one drawn once and kept in the database, so every replica signs alike without configuration.
 */
@ApplicationScoped
class AdmissionTokens {

    private static final String KEY_NAME = "admission-tokens";
    private static final String STORE_KEY = """
            INSERT INTO service_secrets (name, value) VALUES (:name, :value) ON CONFLICT (name) DO NOTHING""";
    private static final String READ_KEY = "SELECT value FROM service_secrets WHERE name = :name";

    private final Jdbc jdbc;
    private final Clock clock;
    private final Optional<String> configuredSecret;
    private volatile SecretKeySpec key;

    AdmissionTokens(Jdbc jdbc, Clock clock,
            @ConfigProperty(name = "waiting-room.token-secret") Optional<String> configuredSecret) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.configuredSecret = configuredSecret;
    }

    String issue(long eventId, String ticket, Instant expires) {
        String payload = eventId + ":" + ticket + ":" + expires.getEpochSecond();
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(mac(payload));
    }

    /** Whether {@code token} admits to {@code eventId} now: signed by us, for that event, not expired. */
    boolean admits(long eventId, String token) {
        int dot = token == null ? -1 : token.indexOf('.');
        if (dot < 0) {
            return false;
        }
        try {
            String payload = new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8);
            byte[] signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, mac(payload))) {
                return false;
            }
            String[] parts = payload.split(":");
            return parts.length == 3 && parts[0].equals(Long.toString(eventId))
                    && Instant.ofEpochSecond(Long.parseLong(parts[2])).isAfter(clock.instant());
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private byte[] mac(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    private SecretKeySpec key() {
        SecretKeySpec known = key;
        if (known == null) {
            byte[] secret = configuredSecret.map(value -> value.getBytes(StandardCharsets.UTF_8))
                    .orElseGet(this::sharedSecret);
            known = new SecretKeySpec(secret, "HmacSHA256");
            key = known;
        }
        return known;
    }

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    byte[] sharedSecret() {
        byte[] drawn = new byte[32];
        new SecureRandom().nextBytes(drawn);
        jdbc.statement(STORE_KEY).set("name", KEY_NAME).set("value", drawn).update();
        return jdbc.statement(READ_KEY).set("name", KEY_NAME).list(row -> row.getBytes(1)).get(0);
    }
}
