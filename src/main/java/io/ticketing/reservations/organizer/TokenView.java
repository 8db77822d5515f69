package io.ticketing.reservations.organizer;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.idempotency.ShownOnce;

/**
 * An API token as the API shows it: never its secret, but on creation ({@code token}, shown once); {@code prefix}
 * tells tokens apart; {@code last_used_at} is at most a minute behind.
 */
public record TokenView(long id, String name, String scope, @Schema(nullable = true) List<String> events,
        @Schema(nullable = true, implementation = String.class, format = "date-time") Instant expiresAt, String prefix,
        @Schema(implementation = String.class, format = "date-time") Instant createdAt,
        @Schema(nullable = true, implementation = String.class, format = "date-time") Instant lastUsedAt,
        @Schema(description = "the sales channel the carts it opens sell in (contract section 12)", example = "web") String channel,
        @Schema(nullable = true, description = "the secret, only in the answer to its creation: keep it, it is never shown again (a replay of the creation's Idempotency-Key answers null)") String token)
        implements
            ShownOnce {

    @Override
    public TokenView withoutSecret() {
        return new TokenView(id, name, scope, events, expiresAt, prefix, createdAt, lastUsedAt, channel, null);
    }
}
