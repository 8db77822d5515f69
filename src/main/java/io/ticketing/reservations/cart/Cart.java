package io.ticketing.reservations.cart;

import java.time.Instant;

import io.ticketing.reservations.reservation.Holder;

/**
 * A buyer's short hold. Its random id is its only credential; {@code expires} is the latest deadline of its
 * positions, or its creation plus the event's TTL while it is empty. {@code buyer}, the storefront's id of the
 * person buying (or null), is what per-buyer limits count by. {@code channel}: the sales channel of the token that
 * opened it (contract section 12), which it keeps.
 */
public record Cart(String id, long eventId, Instant createdAt, Instant expires, String buyer, String channel) {

    /** Whom its claims are for. */
    public Holder holder() {
        return new Holder(buyer, channel);
    }
}
