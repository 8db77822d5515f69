package io.ticketing.reservations.waitingroom;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.ticketing.reservations.auth.SigningKeys;

/**
 * Admission tokens: {@code event:ticket:expiry}, signed ({@link SigningKeys}). Checking one needs no database read,
 * so the cart endpoints stay as fast with the room on. The key is {@code waiting-room.token-secret} when set;
 * otherwise one drawn once and kept in the database, so every replica signs alike without configuration.
 */
@ApplicationScoped
class AdmissionTokens {

    /** The database name of the key, kept from before other purposes had keys of their own. */
    private static final String KEY_NAME = "admission-tokens";

    private final SigningKeys keys;
    private final Clock clock;
    private final Optional<String> configuredSecret;

    AdmissionTokens(SigningKeys keys, Clock clock,
            @ConfigProperty(name = "waiting-room.token-secret") Optional<String> configuredSecret) {
        this.keys = keys;
        this.clock = clock;
        this.configuredSecret = configuredSecret;
    }

    String issue(long eventId, String ticket, Instant expires) {
        return keys.sign(KEY_NAME, configuredSecret, eventId + ":" + ticket + ":" + expires.getEpochSecond());
    }

    /** The ticket {@code token} admits to {@code eventId} now: signed by us, for that event, not expired. */
    Optional<String> ticketOf(long eventId, String token) {
        return keys.payload(KEY_NAME, configuredSecret, token).flatMap(payload -> {
            String[] parts = payload.split(":");
            try {
                boolean admits = parts.length == 3 && parts[0].equals(Long.toString(eventId))
                        && Instant.ofEpochSecond(Long.parseLong(parts[2])).isAfter(clock.instant());
                return admits ? Optional.of(parts[1]) : Optional.empty();
            } catch (NumberFormatException malformed) {
                return Optional.empty();
            }
        });
    }
}
