package io.ticketing.reservations.cart;

import java.math.BigDecimal;
import java.time.Instant;

import io.ticketing.reservations.reservation.HeldPosition;

/**
 * One held ticket; it counts against its quotas, seat and voucher while {@code expires >= now}. Its deadline never
 * passes {@code createdAt} plus {@code reservation.max-hold}; {@code createdAt} is read only where that is checked
 * (extending a cart), and null elsewhere.
 */
public record CartPosition(long id, long itemId, Long seatId, Long voucherId, BigDecimal price, Instant expires,
        Instant createdAt, Long dateId, String passSeatGuid, Long bundledIn) implements HeldPosition {

    CartPosition since(Instant created) {
        return new CartPosition(id, itemId, seatId, voucherId, price, expires, created, dateId, passSeatGuid,
                bundledIn);
    }

    CartPosition extendedTo(Instant deadline) {
        return new CartPosition(id, itemId, seatId, voucherId, price, deadline, createdAt, dateId, passSeatGuid,
                bundledIn);
    }
}
