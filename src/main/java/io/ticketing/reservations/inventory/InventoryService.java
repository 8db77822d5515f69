package io.ticketing.reservations.inventory;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.NotFoundException;

/** Items and quotas of an event: the admin side of the inventory. */
@ApplicationScoped
public class InventoryService {

    private final AdvisoryLocks locks;
    private final QuotaCounter counter;

    InventoryService(AdvisoryLocks locks, QuotaCounter counter) {
        this.locks = locks;
        this.counter = counter;
    }

    @Transactional
    public Item createItem(Event event, InventoryRequests.NewItem request) {
        Item item = new Item();
        item.eventId = event.id;
        item.name = request.name().strip();
        item.price = new BigDecimal(request.price());
        item.requiresSeat = Boolean.TRUE.equals(request.requiresSeat());
        item.active = !Boolean.FALSE.equals(request.active());
        item.persistAndFlush();
        return item;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Item> items(Event event) {
        return Item.listForEvent(event.id);
    }

    /**
     * A finite quota over items already on sale limits them at once, and which holds it touches cannot be
     * known before counting: it takes the event's exclusive lock.
     */
    @DurableTransaction
    public Quota createQuota(Event event, InventoryRequests.NewQuota request) {
        Set<Long> items = itemsOfEvent(event, request.items());
        if (request.size() != null && !items.isEmpty()) {
            locks.lockEvent(event.id);
        }
        Quota quota = new Quota();
        quota.eventId = event.id;
        quota.name = request.name().strip();
        quota.size = request.size();
        quota.itemIds = items;
        quota.persistAndFlush();
        return quota;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Quota quota(Event event, long quotaId) {
        return Quota.findInEvent(event.id, quotaId).orElseThrow(() -> new NotFoundException("quota", quotaId));
    }

    /**
     * Shrinking a quota locks it, as a reservation would; adding items to a finite quota locks the whole
     * event (see {@link #createQuota}). Growing it or removing items frees capacity and takes no lock.
     */
    @DurableTransaction
    public Quota updateQuota(Event event, long quotaId, long expectedVersion, InventoryRequests.QuotaChanges changes) {
        Quota quota = quota(event, quotaId);
        IfMatch.check(expectedVersion, quota.version);
        Integer newSize = changes.size() == null ? quota.size : changes.size().orElse(null);
        Set<Long> newItems = changes.items() == null ? quota.itemIds : itemsOfEvent(event, changes.items());
        boolean addsItems = !quota.itemIds.containsAll(newItems);
        boolean shrinks = newSize != null && (quota.size == null || newSize < quota.size);
        if (newSize != null && addsItems) {
            locks.lockEvent(event.id);
        } else if (shrinks) {
            locks.lockObjects(event.id, List.of(LockTarget.quota(quota.id)));
        }
        if (changes.name() != null) {
            quota.name = changes.name().strip();
        }
        quota.size = newSize;
        quota.itemIds.retainAll(newItems);
        quota.itemIds.addAll(newItems);
        quota.flush();
        return quota;
    }

    /** Reads never lock: the numbers are those of the last committed state. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public QuotaAvailability availability(Event event, long quotaId) {
        return counter.count(quota(event, quotaId));
    }

    private static Set<Long> itemsOfEvent(Event event, List<Long> itemIds) {
        Set<Long> items = new LinkedHashSet<>(itemIds == null ? List.of() : itemIds);
        for (Long itemId : items) {
            if (Item.findInEvent(event.id, itemId).isEmpty()) {
                throw new NotFoundException("item", itemId);
            }
        }
        return items;
    }
}
