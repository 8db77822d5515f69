package io.ticketing.reservations.problem;

/** 404 {@code not_found}: an unknown event, item, quota, seat, voucher, cart, position or order. */
public class NotFoundException extends ApiException {

    public NotFoundException(String what, Object id) {
        super(404, "not_found", "Not Found", "No " + what + " '" + id + "' in this event.");
    }
}
