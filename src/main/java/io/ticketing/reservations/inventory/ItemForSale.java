package io.ticketing.reservations.inventory;

import java.util.List;
import java.util.Set;

/**
 * What a reservation checks about an item: whether it sells at all, with a seat or without, how many one buyer may
 * have of it ({@code maxPerBuyer}) and of its whole event ({@code eventMaxPerBuyer}; null is no limit), and contract
 * section 10's: whether it is a pass ({@code everyDate}), what one of it bundles, whether its event has dates at all
 * ({@code eventDated}); and for a pass and what a pass bundles, the {@code passDates} it counts and is checked on
 * (every date of the event, on sale or not: null for other items) and whether any of them is on sale.
 */
public record ItemForSale(long id, String name, boolean requiresSeat, boolean active, Integer maxPerBuyer,
        Integer eventMaxPerBuyer, boolean everyDate, List<Bundled> bundle, Set<Long> passDates,
        boolean eventDated, boolean passOnSale) {

    /** {@code count} positions of item {@code itemId} come with each position of the bundling item. */
    public record Bundled(long itemId, int count) {
    }

    public boolean limitedPerBuyer() {
        return maxPerBuyer != null || eventMaxPerBuyer != null;
    }
}
