package io.ticketing.reservations.waitinglist;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A waiting-list entry as the API shows it; its id is its credential, as a cart's is. */
public record WaitingListView(String id, long itemId, int quantity, String email,
        @Schema(nullable = true) String buyer, int priority,
        @Schema(enumeration = {
                "waiting", "offered", "redeemed", "expired", "canceled"}) String status,
        @Schema(nullable = true, description = "waiting entries of the same item ahead of this one (higher priority, or the same and older); null unless waiting") Long position,
        Offer offer, Instant createdAt, long version){

    /** Null until the entry is offered; then it stays, whatever becomes of the offer. */
    @Schema(nullable = true, description = "The offer, once made: a voucher for the entry's quantity of its item, usable until valid_until; null until then.")
    public record Offer(String voucherCode, Instant validUntil) {
    }
}
