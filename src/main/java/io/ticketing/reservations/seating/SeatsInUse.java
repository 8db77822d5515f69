package io.ticketing.reservations.seating;

import java.util.List;

import io.ticketing.reservations.problem.ApiException;

/**
 * 409 {@code seat_in_use}: a plan change would drop seats that are held, sold or bound to a voucher, or move them
 * to another item (another price level); nothing changed. pretix's rule: no sold seat vanishes.
 */
final class SeatsInUse extends ApiException {

    SeatsInUse(List<String> guids) {
        super(409, "seat_in_use", "Conflict", "These seats are held, in a pending or paid order or bound to a"
                + " voucher: a plan must keep their guid and their category's item. " + guids);
        with("seats", guids);
    }
}
