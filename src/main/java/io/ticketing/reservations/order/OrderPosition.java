package io.ticketing.reservations.order;

import java.math.BigDecimal;

import io.ticketing.reservations.reservation.HeldPosition;

/**
 * One sold ticket: the item, seat, voucher and price it had when the order was placed, its date, the bundle
 * position it came with, and the secret its ticket carries.
 */
public record OrderPosition(long id, long itemId, Long seatId, Long voucherId, BigDecimal price, long orderId,
        Long dateId, String passSeatGuid, Long bundledIn, TicketSecret secret) implements HeldPosition {
}
