package io.ticketing.reservations.order;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /orders/{code}/positions/{position}/transfer}: whom the position goes to, by email, and the
 * buyer its per-buyer limits count by, named as for a cart (contract section 8).
 */
public record TransferRequest(
        @Schema(example = "grace@example.com") @NotBlank @Email @Size(max = 254) String email,
        @Schema(example = "7d1e0b3a", nullable = true, description = "the receiver as a buyer id, as it is") @Size(min = 1, max = 200) String buyer,
        @Schema(nullable = true, description = "the receiver as a buyer the shop's server vouches for (POST /events/{event}/buyer_tokens)") @Size(min = 1, max = 1000) String buyerToken) {
}
