package io.ticketing.reservations.inventory;

/**
 * What a reservation checks about an item: whether it sells at all, with a seat or without, and how many one buyer
 * may have of it ({@code maxPerBuyer}) and of its whole event ({@code eventMaxPerBuyer}); null is no limit.
 */
public record ItemForSale(long id, String name, boolean requiresSeat, boolean active, Integer maxPerBuyer,
        Integer eventMaxPerBuyer) {

    public boolean limitedPerBuyer() {
        return maxPerBuyer != null || eventMaxPerBuyer != null;
    }
}
