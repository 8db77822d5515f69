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
     * The item is not on sale for reasons other than capacity (inactive, or in no quota): nothing would ever be
     * offered, and what its entries wait for would be kept from the items sold beside it.
     */
    static WaitingListConflict itemUnavailable(Item item) {
        WaitingListConflict conflict = new WaitingListConflict("item_unavailable", "Item " + item.id
                + " is not on sale (inactive, or in no quota); its waiting list opens when it is on sale.");
        conflict.with("item_id", item.id);
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
