package io.ticketing.reservations.reservation;

import java.math.BigDecimal;

/**
 * What a cart position and an order position both hold: an item, maybe a seat and a voucher, at a price, on a date
 * (contract section 10), maybe in a bundle.
 */
public interface HeldPosition {

    long id();

    long itemId();

    Long seatId();

    Long voucherId();

    BigDecimal price();

    /** The date it counts on; null: every date (a pass), or an event without dates. */
    Long dateId();

    /** For a pass that needs a seat: the guid it holds on every date. */
    String passSeatGuid();

    /** The position of the bundle this one came with, or null. */
    Long bundledIn();

    /**
     * This position as something to hold again, for a re-check under the locks: never expanded into a bundle, and, if
     * a bundle brought it, marked so ({@link Claim#HELD_IN_A_BUNDLE}).
     */
    default Claim claim() {
        return new Claim(itemId(), seatId(), voucherId(), dateId(), passSeatGuid(),
                bundledIn() == null ? null : Claim.HELD_IN_A_BUNDLE);
    }
}
