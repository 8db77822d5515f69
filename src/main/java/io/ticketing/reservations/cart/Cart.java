package io.ticketing.reservations.cart;

import java.time.Instant;

/**
 * A buyer's short hold. Its random id is its only credential; {@code expires} is the latest deadline of its
 * positions, or its creation plus the event's TTL while it is empty.
 */
public record Cart(String id, long eventId, Instant createdAt, Instant expires) {
}
