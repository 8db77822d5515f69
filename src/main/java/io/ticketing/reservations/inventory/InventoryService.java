package io.ticketing.reservations.inventory;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.organizer.KnownChannels;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.NotFoundException;
import io.ticketing.reservations.problem.ValidationException;

/** Items of an event: the admin side of the inventory ({@link QuotaService} has the quotas). */
@ApplicationScoped
public class InventoryService {

    private final InventoryRows rows;
    private final FreedCapacity freed;
    private final DatePrices prices;
    private final ExpiredHolds expiredHolds;
    private final KnownChannels channels;

    InventoryService(InventoryRows rows, FreedCapacity freed, DatePrices prices, ExpiredHolds expiredHolds,
            KnownChannels channels) {
        this.channels = channels;
        this.expiredHolds = expiredHolds;
        this.rows = rows;
        this.freed = freed;
        this.prices = prices;
    }

    /** A new item sells nothing until a quota holds it, so it takes no lock, with its bundle and prices. */
    @Transactional
    public InventoryViews.ItemView createItem(Event event, InventoryRequests.NewItem request) {
        Item item = new Item();
        item.eventId = event.id;
        item.name = request.name().strip();
        item.price = new BigDecimal(request.price());
        item.requiresSeat = Boolean.TRUE.equals(request.requiresSeat());
        item.active = !Boolean.FALSE.equals(request.active());
        item.maxPerBuyer = request.maxPerBuyer();
        item.everyDate = Boolean.TRUE.equals(request.everyDate());
        item.channels = channels.sellingIn(event.organizerId, request.channels());
        item.persistAndFlush();
        if (request.bundle() != null) {
            changeBundle(event, item, request.bundle());
        }
        changePrices(event, item, request.prices());
        return itemView(item);
    }

    /** The event's items in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.ItemView> items(Event event, PageRequest page) {
        List<Item> items = EventOwnedEntity.pageOf(Item.class, event.id, page);
        Map<Long, List<InventoryRequests.Bundled>> bundles = rows.bundlesOf(items.stream().map(i -> i.id).toList());
        return Page.of(items.stream().map(item -> InventoryViews.ItemView.of(item,
                bundles.getOrDefault(item.id, List.of()), prices.ofItem(item.id))).toList(), page,
                InventoryViews.ItemView::id);
    }

    /** What one position of each of these items brings (contract section 10), by item and bundled item; absent: none. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Map<Long, Map<Long, Integer>> bundlesOf(Collection<Long> itemIds) {
        Map<Long, Map<Long, Integer>> bundles = new HashMap<>();
        rows.bundlesOf(List.copyOf(itemIds)).forEach((item, bundle) -> bundle.forEach(bundled -> bundles
                .computeIfAbsent(item, i -> new HashMap<>()).put(bundled.itemId(), bundled.count())));
        return bundles;
    }

    /** The item as the API shows it, with its bundle and its prices on dates. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public InventoryViews.ItemView itemView(Item item) {
        return InventoryViews.ItemView.of(item, rows.bundlesOf(List.of(item.id)).getOrDefault(item.id, List.of()),
                prices.ofItem(item.id));
    }

    /**
     * Bundled items need no seat, belong to the event, and bundle nothing themselves; an item in a bundle bundles
     * nothing (bundles do not nest).
     */
    private void changeBundle(Event event, Item item, List<InventoryRequests.Bundled> bundle) {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < bundle.size(); i++) {
            long bundledId = bundle.get(i).itemId();
            String field = "bundle[" + i + "].item_id";
            Item bundled = Item.findInEvent(event.id, bundledId).orElseThrow(() -> new NotFoundException("item",
                    bundledId));
            if (bundled.id.equals(item.id) || !seen.add(bundled.id)) {
                throw new ValidationException(field, "names this item, or an item twice");
            }
            if (bundled.requiresSeat) {
                throw new ValidationException(field, "item " + bundledId + " needs a seat; bundled items need none");
            }
            if (!rows.bundlesOf(List.of(bundledId)).isEmpty()) {
                throw new ValidationException(field, "item " + bundledId + " is a bundle itself; bundles do not nest");
            }
        }
        if (!bundle.isEmpty() && rows.inABundle(item.id)) {
            throw new ValidationException("bundle", "item " + item.id + " is in another bundle; bundles do not nest");
        }
        rows.setBundle(item.id, bundle);
    }

    private void changePrices(Event event, Item item, Map<Long, String> changes) {
        if (changes == null || changes.isEmpty()) {
            return;
        }
        prices.requireDatesOf(event.id, changes.keySet());
        changes.forEach((dateId, price) -> prices.change(dateId, item.id, price));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Item item(Event event, long itemId) {
        return Item.findInEvent(event.id, itemId).orElseThrow(() -> new NotFoundException("item", itemId));
    }

    /**
     * Name, price, whether it is on sale and its per-buyer limit. None of them makes a quota, seat or voucher scarcer
     * for what is held or sold, so no lock: each applies to holds taken from now on (a lower limit does not take back
     * what a buyer has). An item back on sale has its waiting entries count again, and offered what is free.
     */
    @Transactional
    public InventoryViews.ItemView updateItem(Event event, long itemId, IfMatch ifMatch,
            InventoryRequests.ItemChanges changes) {
        Item item = item(event, itemId);
        ifMatch.check(item.version);
        if (changes.name() != null) {
            item.name = changes.name().strip();
        }
        if (changes.price() != null) {
            item.price = new BigDecimal(changes.price());
        }
        boolean backOnSale = Boolean.TRUE.equals(changes.active()) && !item.active;
        if (changes.active() != null) {
            item.active = changes.active();
        }
        if (changes.maxPerBuyer() != null) {
            item.maxPerBuyer = changes.maxPerBuyer().orElse(null);
        }
        if (changes.channels() != null) {
            // Limiting or widening where it sells makes no quota scarcer: it takes no lock.
            item.channels = channels.sellingIn(event.organizerId, changes.channels().orElse(null));
        }
        if (changes.prices() != null && !changes.prices().isEmpty()) {
            // Its prices are part of it: a price change is an edit of the item, with a new version.
            Item.getEntityManager().lock(item, LockModeType.OPTIMISTIC_FORCE_INCREMENT);
            changePrices(event, item, changes.prices());
        }
        item.flush();
        if (backOnSale) {
            freed.of(event);
        }
        return itemView(item);
    }

    /**
     * Only an item nothing was held or sold as, and that no seat, voucher, bundle or seating plan names; otherwise 409
     * {@code in_use}. A plan names it for every date to come, which would seat them as an item that is gone.
     * It frees capacity, so it takes no lock: a hold committed meanwhile makes the delete fail on its foreign key,
     * and the client retries into {@code in_use}.
     */
    @Transactional
    public void deleteItem(Event event, long itemId) {
        Item item = item(event, itemId);
        if (rows.itemInUse(item.id)) {
            throw new InUseException("Item " + item.id + " is held in a cart, was ordered, has seats or vouchers, is"
                    + " bundled, or the seating plan maps a category to it; deactivate it instead (PATCH with"
                    + " \"active\": false).");
        }
        expiredHolds.deleteOf(ExpiredHolds.Of.ITEM, item.id);
        item.delete();
        item.flush();
    }

    /** The event's items with these ids, or 404 for the first that is not one. */
    static Set<Long> itemsOfEvent(Event event, List<Long> itemIds) {
        Set<Long> items = new LinkedHashSet<>(itemIds == null ? List.of() : itemIds);
        for (Long itemId : items) {
            if (Item.findInEvent(event.id, itemId).isEmpty()) {
                throw new NotFoundException("item", itemId);
            }
        }
        return items;
    }

}
