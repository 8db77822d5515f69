package io.ticketing.reservations.reservation;

/**
 * One position a flow wants to hold: an item, with the seat and voucher it uses, if any, on its date (contract section
 * 10; null: a pass, or an event without dates). A pass that needs a seat holds {@code passSeatGuid} on every date.
 * {@code bundledIn} is the index, in the same list of claims, of the bundle position this one came with.
 */
public record Claim(long itemId, Long seatId, Long voucherId, Long dateId, String passSeatGuid, Integer bundledIn) {

    /** The {@code bundledIn} of a held position that a bundle brought, re-checked without its bundle. */
    public static final int HELD_IN_A_BUNDLE = -1;

    /** A claim of an event without dates, or of one date, bundled in nothing. */
    public static Claim of(long itemId, Long seatId, Long voucherId, Long dateId) {
        return new Claim(itemId, seatId, voucherId, dateId, null, null);
    }

    /** A position that {@code count} positions of a bundle bring with the one at {@code parent}: no seat, no voucher. */
    Claim bundled(long bundledItemId, int parent) {
        return new Claim(bundledItemId, null, null, dateId, null, parent);
    }
}
