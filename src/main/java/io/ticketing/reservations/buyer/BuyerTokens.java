package io.ticketing.reservations.buyer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.security.identity.SecurityIdentity;
import io.ticketing.reservations.auth.Roles;
import io.ticketing.reservations.auth.SigningKeys;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.problem.ApiException;

/**
 * A buyer the shop's server vouches for (contract section 8): per-buyer limits count by a buyer id, and a browser
 * holding the storefront token could claim any. So a storefront names its buyer only by a token the service signed
 * for that event and buyer ({@code event:expiry:buyer}), which the shop's server asks for with an admin token
 * ({@code POST .../buyer_tokens}) and hands to the buyer's browser. An admin token (a server) may still name a buyer
 * as it is.
 */
@ApplicationScoped
public class BuyerTokens {

    private static final String KEY_NAME = "buyer-tokens";

    private final SigningKeys keys;
    private final Clock clock;
    private final Duration validFor;
    private final SecurityIdentity identity;

    BuyerTokens(SigningKeys keys, Clock clock, @ConfigProperty(name = "buyers.token-ttl") Duration validFor,
            SecurityIdentity identity) {
        this.keys = keys;
        this.clock = clock;
        this.validFor = validFor;
        this.identity = identity;
    }

    /** A signed buyer of the event, valid for {@code buyers.token-ttl}. */
    public BuyerRequests.BuyerToken issue(Event event, String buyer) {
        Instant expires = clock.instant().plus(validFor);
        return new BuyerRequests.BuyerToken(buyer,
                keys.sign(KEY_NAME, Optional.empty(), event.id + ":" + expires.getEpochSecond() + ":" + buyer),
                expires);
    }

    /**
     * The buyer of a request: the one {@code token} vouches for, or {@code claimed} from an admin token; null when
     * neither is given. A storefront that claims a buyer without a token, or sends one that is not valid for the
     * event now: 403 {@code buyer_unverified}.
     */
    public String buyer(Event event, String claimed, String token) {
        if (token != null) {
            return keys.payload(KEY_NAME, Optional.empty(), token).map(payload -> payload.split(":", 3))
                    .filter(parts -> parts.length == 3 && parts[0].equals(Long.toString(event.id)) && valid(parts[1]))
                    .map(parts -> parts[2])
                    .orElseThrow(() -> unverified("The buyer_token is not valid for this event now; ask the shop"
                            + " for a new one."));
        }
        if (claimed != null && !identity.hasRole(Roles.ADMIN)) {
            throw unverified("A storefront names its buyer with a buyer_token the shop's server asked for"
                    + " (POST /events/{event}/buyer_tokens); a buyer id alone counts only from an admin token.");
        }
        return claimed;
    }

    private boolean valid(String expiry) {
        try {
            return Instant.ofEpochSecond(Long.parseLong(expiry)).isAfter(clock.instant());
        } catch (NumberFormatException malformed) {
            return false;
        }
    }

    private static ApiException unverified(String detail) {
        return new ApiException(403, "buyer_unverified", "Forbidden", detail);
    }
}
