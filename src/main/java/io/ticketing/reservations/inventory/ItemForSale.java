package io.ticketing.reservations.inventory;

/** What a reservation checks about an item: whether it sells at all, and with a seat or without. */
public record ItemForSale(long id, String name, boolean requiresSeat, boolean active) {
}
