package io.ticketing.reservations.order;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.ticketing.reservations.idempotency.NamesACart;

/** The body of {@code POST /orders}: which cart becomes an order, and whom it belongs to. */
public record Checkout(@NotBlank @Size(max = 100) String cartId,
        @Schema(example = "ada@example.com") @NotBlank @Email @Size(max = 254) String email) implements NamesACart {
}
