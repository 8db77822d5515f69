package io.ticketing.reservations.inventory;

/**
 * The one definition of "this seat cannot be sold" (contract sections 1 and 10), for the seat list and for
 * reservations. A pass holds its seat's guid on every date (a seat of a date), by guid rather than by seat.
 */
public final class SeatHolds {

    /**
     * A predicate over a {@code seats} row named {@code s}. Parameters: {@code :own}, cart positions that do
     * not count (a cart re-checking its own holds); {@code :vouchers}, the vouchers the buyer uses (a
     * seat-bound voucher holds its seat until used up or expired, except against its own holder).
     */
    public static final String UNAVAILABLE = unavailableUnless("v.id <> ALL(:vouchers)");

    /**
     * {@link #UNAVAILABLE} with {@code notTheBuyers}, a predicate over a {@code vouchers} row named {@code v}, saying
     * which seat-bound vouchers hold their seat against this buyer: a batch pairs each buyer with its vouchers.
     */
    public static String unavailableUnless(String notTheBuyers) {
        return """
                (s.blocked
                  OR EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                             WHERE p.seat_id = s.id AND o.status IN ('pending', 'paid'))
                  OR EXISTS (SELECT 1 FROM cart_positions c
                             WHERE c.seat_id = s.id AND c.expires >= now() AND c.id <> ALL(:own))
                  OR EXISTS (SELECT 1 FROM vouchers v
                             WHERE v.seat_id = s.id AND v.redeemed < v.max_usages
                               AND (v.valid_until IS NULL OR v.valid_until >= now()) AND %s)
                  OR s.date_id IS NOT NULL AND (
                       EXISTS (SELECT 1 FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                               WHERE c.pass_seat_guid = s.guid AND k.event_id = s.event_id AND c.expires >= now()
                                 AND c.id <> ALL(:own))
                       OR EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                                  WHERE p.pass_seat_guid = s.guid AND o.event_id = s.event_id
                                    AND o.status IN ('pending', 'paid'))))""".formatted(notTheBuyers);
    }

    /**
     * A seat {@code s} that {@code :channel} sells (contract section 12): one kept for channels sells only in those,
     * as a seats.io channel keeps its seats. A seat kept for another channel is not free for this buyer, whatever its
     * holds.
     */
    public static final String SELLS_IN_CHANNEL = "(s.channels IS NULL OR CAST(:channel AS text) = ANY(s.channels))";

    /**
     * A seat {@code s} whose item can take one more position on the seat's date for the caller now, and, for a pass,
     * whose guid is free on every date: {@link SeatsShownFree.Takeable}'s pairs {@code :takeable_items} and
     * {@code :takeable_dates} (0: of no date), and {@code :pass_guids}. With {@link #SELLS_IN_CHANNEL} and a seat that is
     * not {@link #UNAVAILABLE} (or {@link #FREE}), what a seat list and a plan show free: a seat they show free can be
     * held (contract section 3).
     */
    public static final String TAKEABLE = """
            (EXISTS (SELECT 1 FROM unnest(CAST(:takeable_items AS bigint[]), CAST(:takeable_dates AS bigint[]))
                       AS t (item, day) WHERE t.item = s.item_id AND t.day = coalesce(s.date_id, 0))
              AND (s.guid = ANY(CAST(:pass_guids AS text[]))
                   OR NOT EXISTS (SELECT 1 FROM items p WHERE p.id = s.item_id AND p.every_date)))""";

    /**
     * {@code NOT UNAVAILABLE} with no own positions and no vouchers of the buyer, written as separate
     * {@code NOT EXISTS} so that PostgreSQL can answer it for a whole seating plan with anti-joins rather than
     * three probes a seat. A seat's holds and sales are of the seat's item, which lets it read only that item's.
     */
    public static final String FREE = """
            (NOT s.blocked
              AND NOT EXISTS (SELECT 1 FROM cart_positions c
                              WHERE c.seat_id = s.id AND c.item_id = s.item_id AND c.expires >= now())
              AND NOT EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                              WHERE p.seat_id = s.id AND p.item_id = s.item_id AND o.status IN ('pending', 'paid'))
              AND NOT EXISTS (SELECT 1 FROM vouchers v
                              WHERE v.seat_id = s.id AND v.redeemed < v.max_usages
                                AND (v.valid_until IS NULL OR v.valid_until >= now()))
              AND NOT EXISTS (SELECT 1 FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                              WHERE c.pass_seat_guid = s.guid AND k.event_id = s.event_id AND c.expires >= now()
                                AND s.date_id IS NOT NULL)
              AND NOT EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                              WHERE p.pass_seat_guid = s.guid AND o.event_id = s.event_id
                                AND o.status IN ('pending', 'paid') AND s.date_id IS NOT NULL))""";

    private SeatHolds() {
    }
}
