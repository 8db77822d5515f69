package io.ticketing.reservations.inventory;

import io.ticketing.reservations.event.Event;

/**
 * What makes a seat free to a caller beyond the seat itself (contract section 3, "What a caller is shown is what it
 * can take"): one position of its item on its date fits now in the caller's channel, by the rule and count an add is
 * judged by, and a pass's seat is free under its guid on every date. The storefront's availability implements it
 * ({@code availability/StorefrontAvailability}), which counts as an add is judged; the seat list and the seating plan
 * read it through this, so inventory depends on nothing that depends on it.
 */
public interface SeatsShownFree {

    /** For {@code channel}, now: the items that can take one more seat, by date, and the pass guids free throughout. */
    Takeable takeable(Event event, String channel);

    /**
     * Pairs of {@code items[i]} and {@code dates[i]} (0: of no date) where one position fits, and {@code passGuids},
     * the guids a pass can hold on every date: the parameters of {@link SeatHolds#TAKEABLE}.
     */
    record Takeable(Long[] items, Long[] dates, String[] passGuids) {
    }
}
