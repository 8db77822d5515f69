package io.ticketing.reservations.cart;

import java.time.Instant;
import java.util.List;

/** A cart as the API shows it; each position has its own deadline, {@code expires} is the latest. */
public record CartView(String id, Instant expires, String total, List<Position> positions) {

    public record Position(long id, long itemId, String seatGuid, String voucherCode, String price, Instant expires) {
    }
}
