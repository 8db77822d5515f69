package io.ticketing.reservations.reservation;

/** One position a flow wants to hold: an item, with the seat and voucher it uses, if any. */
public record Claim(long itemId, Long seatId, Long voucherId) {
}
