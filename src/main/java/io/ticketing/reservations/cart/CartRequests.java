package io.ticketing.reservations.cart;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request bodies of the cart endpoints. */
public final class CartRequests {

    private CartRequests() {
    }

    /**
     * An optional body: the buyer per-buyer limits count by. A storefront sends the {@code buyer_token} the shop's
     * server asked for; an admin token may name the {@code buyer} (an opaque id such as a hashed email) as it is.
     */
    public record NewCart(
            @Schema(example = "4f2a9c0e", nullable = true, description = "admin tokens only: the buyer as it is") @Size(min = 1, max = 200) String buyer,
            @Schema(nullable = true, description = "the buyer the shop's server vouches for (POST /events/{event}/buyer_tokens)") @Size(min = 1, max = 1000) String buyerToken) {
    }

    /** Positions to add, all or none. More than {@code reservation.max-positions} in total is 413. */
    public record NewPositions(@NotNull @Size(min = 1, max = 10_000) List<@Valid @NotNull NewPosition> positions) {
    }

    /** {@code quantity} seats of a seated item, in {@code section} when given, chosen by the service. */
    public record BestAvailable(
            @Schema(example = "2") @NotNull Long itemId,
            @Schema(example = "4") @NotNull @Min(1) @Max(100) Integer quantity,
            @Schema(example = "Balcony", nullable = true) @Size(min = 1, max = 100) String section,
            @Schema(nullable = true, description = "the date of an event with dates") Long dateId) {
    }

    /**
     * {@code quantity} defaults to 1 and must be 1 with a seat. In an event with dates, {@code date_id} names the date
     * (a pass for every date names none).
     */
    public record NewPosition(
            @Schema(example = "1") @NotNull Long itemId,
            @Schema(example = "2", description = "1 if absent; must be 1 with a seat") @Min(1) @Max(10_000) Integer quantity,
            @Size(min = 1, max = 100) String seatGuid,
            @Size(min = 1, max = 100) String voucherCode,
            @Schema(nullable = true, description = "the date of an event with dates; none for a pass (every_date) or in an event without dates") Long dateId) {

        int count() {
            return quantity == null ? 1 : quantity;
        }
    }
}
