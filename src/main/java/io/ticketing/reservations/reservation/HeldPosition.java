package io.ticketing.reservations.reservation;

import java.math.BigDecimal;

/** What a cart position and an order position both hold: an item, maybe a seat and a voucher, at a price. */
public interface HeldPosition {

    long id();

    long itemId();

    Long seatId();

    Long voucherId();

    BigDecimal price();

    /** This position as something to hold again, for a re-check under the locks. */
    default Claim claim() {
        return new Claim(itemId(), seatId(), voucherId());
    }
}
