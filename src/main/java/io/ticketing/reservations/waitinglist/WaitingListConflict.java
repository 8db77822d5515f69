package io.ticketing.reservations.waitinglist;

import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.inventory.Item;
import io.ticketing.reservations.problem.ApiException;

/** 409s of the waiting list (contract section 9). */
final class WaitingListConflict extends ApiException {

    private WaitingListConflict(String code, String detail) {
        super(409, code, "Conflict", detail);
    }

    static WaitingListConflict off(Event event) {
        return new WaitingListConflict("waiting_list_off",
                "Event " + event.slug + " has no waiting list; buy what is available instead.");
    }

    /** Waiting lists are per item, not per date: an event with dates has none (contract section 10). */
    static WaitingListConflict dated(Event event) {
        return new WaitingListConflict("waiting_list_off",
                "Event " + event.slug
                        + " has dates; its waiting list is off, since offers are per item, not per date.");
    }

    /**
     * The item is not on sale in the caller's channel for reasons other than capacity (inactive, in no quota, what its
     * bundle brings in none, or not sold in the channel: {@code why}, as an add would be refused): nothing would ever
     * be offered there, and what its entries wait for would be kept from the items sold beside it.
     */
    static WaitingListConflict itemUnavailable(Item item, ApiException why) {
        WaitingListConflict conflict = new WaitingListConflict("item_unavailable", "Item " + item.id
                + " is not on sale here (" + why.getMessage() + "); its waiting list opens where and when it is.");
        conflict.with("item_id", item.id);
        return conflict;
    }

    /**
     * The item is sold with seats: an offer keeps places of quotas, not seats, so it could be left without one; buyers
     * choose seats instead (as pretix takes no waiting list for seated products).
     */
    static WaitingListConflict seated(Item item) {
        WaitingListConflict conflict = new WaitingListConflict("item_unavailable", "Item " + item.id
                + " is sold with seats, which are chosen, not waited for; watch the seat map for one that frees up.");
        conflict.with("item_id", item.id);
        return conflict;
    }

    /**
     * More places than one buyer may have of the item or the event (contract section 8): an offer of them could never
     * be bought.
     */
    static WaitingListConflict pastBuyerLimit(Item item, int limit, int wanted) {
        WaitingListConflict conflict = new WaitingListConflict("buyer_limit", "One buyer may have at most " + limit
                + " of item " + item.id + "; an entry waits for " + wanted + ".");
        conflict.with("item_id", item.id);
        conflict.with("max_per_buyer", limit);
        return conflict;
    }

    /** The item can sell {@code left} of what was asked for (null: any number): buy it instead of waiting. */
    static WaitingListConflict itemAvailable(Item item, Integer left) {
        WaitingListConflict conflict = new WaitingListConflict("item_available", "Item " + item.id + " can still sell "
                + (left == null ? "any number" : left) + " of the places asked for; add them to a cart instead.");
        conflict.with("item_id", item.id);
        if (left != null) {
            conflict.with("available_number", left);
        }
        return conflict;
    }
}
