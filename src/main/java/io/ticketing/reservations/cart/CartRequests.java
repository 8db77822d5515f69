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

    /** Positions to add, all or none. More than {@code reservation.max-positions} in total is 413. */
    public record NewPositions(@NotNull @Size(min = 1, max = 10_000) List<@Valid @NotNull NewPosition> positions) {
    }

    /** {@code quantity} defaults to 1 and must be 1 with a seat. */
    public record NewPosition(
            @Schema(example = "1") @NotNull Long itemId,
            @Schema(example = "2", description = "1 if absent; must be 1 with a seat") @Min(1) @Max(10_000) Integer quantity,
            @Size(min = 1, max = 100) String seatGuid,
            @Size(min = 1, max = 100) String voucherCode) {

        int count() {
            return quantity == null ? 1 : quantity;
        }
    }
}
