package io.ticketing.reservations.waitinglist;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request bodies of the waiting list. */
public final class WaitingListRequests {

    static final int MAX_PRIORITY = 1_000_000;

    private WaitingListRequests() {
    }

    /** Waiting for {@code quantity} places of an item that cannot sell them now. */
    public record Join(@NotNull @Positive Long itemId,
            @Schema(example = "2", description = "1 to 10; absent: 1") @Min(1) @Max(10) Integer quantity,
            @Schema(example = "ada@example.com") @NotBlank @Email @Size(max = 254) String email,
            @Schema(example = "4f2a9c0e", nullable = true, description = "admin tokens only: the buyer per-buyer limits count, as for a cart") @Size(min = 1, max = 200) String buyer,
            @Schema(nullable = true, description = "the buyer the shop's server vouches for, as for a cart") @Size(min = 1, max = 1000) String buyerToken) {

        int places() {
            return quantity == null ? 1 : quantity;
        }
    }

    /** An admin's change: the entry's priority (higher goes first; 0 by default). */
    public record EntryChanges(
            @Schema(example = "10") @NotNull @Min(-MAX_PRIORITY) @Max(MAX_PRIORITY) Integer priority) {
    }
}
