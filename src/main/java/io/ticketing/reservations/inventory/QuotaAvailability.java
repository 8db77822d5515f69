package io.ticketing.reservations.inventory;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a quota has left, and why (contract section 1), and what the waiting lists of its items on sale wait for
 * (section 9). {@code size} and the number are null when unlimited.
 */
public record QuotaAvailability(boolean available, @Schema(nullable = true) Integer availableNumber,
        @Schema(nullable = true) Integer size, long paidOrders,
        long pendingOrders, long cartPositions, long blockingVouchers,
        @Schema(description = "places the waiting entries of the quota's items on sale wait for; what is left for anyone else is available_number less these") long waitingList) {

    /** The same quota with {@code positions} more held: what is left after claims decided before, in a batch. */
    public QuotaAvailability holdingMore(long positions) {
        return positions == 0
                ? this
                : of(size, paidOrders, pendingOrders, cartPositions + positions, blockingVouchers, waitingList);
    }

    /**
     * What is left for a buyer who is not offered it from the waiting list: while entries wait, capacity freed is
     * theirs first (contract section 9). Null when unlimited.
     */
    public Integer leftForSale() {
        return availableNumber == null ? null : (int) Math.max(0, availableNumber - waitingList);
    }

    /** What section 1 counts against the size: sold, held and blocked. */
    public long used() {
        return paidOrders + pendingOrders + cartPositions + blockingVouchers;
    }

    static QuotaAvailability of(Integer size, long paid, long pending, long carts, long blocking, long waiting) {
        if (size == null) {
            return new QuotaAvailability(true, null, null, paid, pending, carts, blocking, waiting);
        }
        long left = Math.max(0, size - paid - pending - carts - blocking);
        return new QuotaAvailability(left > 0, (int) left, size, paid, pending, carts, blocking, waiting);
    }
}
