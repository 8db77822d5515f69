package io.ticketing.reservations.inventory;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What a quota has left, and why (contract section 1). {@code size} and the number are null when unlimited. */
public record QuotaAvailability(boolean available, @Schema(nullable = true) Integer availableNumber,
        @Schema(nullable = true) Integer size, long paidOrders,
        long pendingOrders, long cartPositions, long blockingVouchers) {

    /** The same quota with {@code positions} more held: what is left after claims decided before, in a batch. */
    public QuotaAvailability holdingMore(long positions) {
        return positions == 0 ? this : of(size, paidOrders, pendingOrders, cartPositions + positions, blockingVouchers);
    }

    static QuotaAvailability of(Integer size, long paid, long pending, long carts, long blocking) {
        if (size == null) {
            return new QuotaAvailability(true, null, null, paid, pending, carts, blocking);
        }
        long left = Math.max(0, size - paid - pending - carts - blocking);
        return new QuotaAvailability(left > 0, (int) left, size, paid, pending, carts, blocking);
    }
}
