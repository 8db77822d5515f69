package io.ticketing.reservations.order;

import java.time.Instant;
import java.util.Locale;

import io.ticketing.reservations.reservation.Holder;

/**
 * A purchase. Pending and paid orders hold their positions' capacity; expired and canceled ones do not.
 * {@code expires} is the payment deadline; {@code version} is the ETag, raised by every change of status.
 * {@code buyer} is its cart's (or null): its positions count against per-buyer limits while it is pending or paid.
 * {@code channel} is its cart's too (contract section 12).
 */
public record Order(long id, long eventId, String code, String email, Status status, Instant expires,
        Instant createdAt, long version, String buyer, String channel) {

    /** Whom its claims are for. */
    public Holder holder() {
        return new Holder(buyer, channel);
    }

    public enum Status {
        PENDING, PAID, EXPIRED, CANCELED;

        /** Whether its positions hold their capacity: only such an order can be changed, transferred or canceled. */
        public boolean holdsCapacity() {
            return this == PENDING || this == PAID;
        }

        /** The lower-case name the contract and the counting SQL use. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Status of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }
}
