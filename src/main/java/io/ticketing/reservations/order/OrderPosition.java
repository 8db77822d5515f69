package io.ticketing.reservations.order;

import java.math.BigDecimal;

import io.ticketing.reservations.reservation.HeldPosition;

/** One sold ticket: the item, seat, voucher and price it had when the order was placed. */
public record OrderPosition(long id, long itemId, Long seatId, Long voucherId, BigDecimal price, long orderId)
        implements
            HeldPosition {
}
