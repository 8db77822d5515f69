package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.event.Event;

/**
 * What a storefront may offer: per active item, the least that is left among its quotas for anyone the waiting list
 * does not offer it to (and its free seats, for seated items). It takes no lock, so it may be a moment stale; adding to a cart is the real check.
 */
@ApplicationScoped
public class StorefrontAvailability {

    private final QuotaCounter counter;
    private final InventoryRows rows;

    StorefrontAvailability(QuotaCounter counter, InventoryRows rows) {
        this.counter = counter;
        this.rows = rows;
    }

    /** An active item and how many are left: null when nothing limits it. */
    private record Left(Item item, Integer number) {

        boolean available() {
            return number == null || number > 0;
        }
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.EventAvailability of(Event event) {
        return new InventoryViews.EventAvailability(left(event).stream()
                .map(left -> new InventoryViews.ItemAvailability(left.item().id, left.available(), left.number()))
                .toList());
    }

    /** What a ticket page shows, in one read: each active item with its name, price and what is left. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.Catalog catalog(Event event) {
        return new InventoryViews.Catalog(left(event).stream()
                .map(left -> new InventoryViews.CatalogItem(left.item().id, left.item().name,
                        left.item().price.toPlainString(), left.item().requiresSeat, left.available(), left.number()))
                .toList());
    }

    private List<Left> left(Event event) {
        List<Quota> quotas = Quota.<Quota>find(
                "select distinct q from Quota q left join fetch q.itemIds where q.eventId = ?1", event.id).list();
        Map<Long, Integer> left = new HashMap<>();
        for (Quota quota : quotas) {
            if (!quota.isUnlimited()) {
                left.put(quota.id, counter.count(quota).leftForSale());
            }
        }
        Map<Long, Long> freeSeats = rows.freeSeatsByItem(event.id);
        List<Left> items = new ArrayList<>();
        for (Item item : Item.listForEvent(event.id)) {
            if (!item.active) {
                continue;
            }
            List<Quota> ofItem = quotas.stream().filter(quota -> quota.itemIds.contains(item.id)).toList();
            Integer number = ofItem.isEmpty() ? Integer.valueOf(0) : null;
            for (Quota quota : ofItem) {
                if (!quota.isUnlimited()) {
                    number = min(number, left.get(quota.id));
                }
            }
            if (item.requiresSeat) {
                number = min(number, Math.toIntExact(freeSeats.getOrDefault(item.id, 0L)));
            }
            items.add(new Left(item, number));
        }
        return items;
    }

    private static Integer min(Integer current, int candidate) {
        return current == null ? candidate : Math.min(current, candidate);
    }
}
