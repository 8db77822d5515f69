package io.ticketing.reservations.buyer;

import java.time.Instant;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The bodies of {@code POST /events/{event}/buyer_tokens}. */
public final class BuyerRequests {

    private BuyerRequests() {
    }

    /** The buyer the shop vouches for: an opaque id of its own, such as a hashed account id. */
    public record NewBuyerToken(@Schema(example = "4f2a9c0e") @NotNull @Size(min = 1, max = 200) String buyer) {
    }

    /** What the shop hands the buyer's browser: {@code buyer_token}, which the storefront sends instead of a buyer. */
    public record BuyerToken(String buyer, String buyerToken,
            @Schema(implementation = String.class, format = "date-time") Instant expiresAt) {
    }
}
