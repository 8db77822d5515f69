package io.ticketing.reservations.reservation;

/**
 * Whom a change is for: its {@code buyer} (or null), by whom per-buyer limits count, and the sales {@code channel} of
 * its cart or order (contract section 12), where its items and seats must sell.
 */
public record Holder(String buyer, String channel) {
}
