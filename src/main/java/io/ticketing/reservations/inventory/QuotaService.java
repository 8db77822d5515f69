package io.ticketing.reservations.inventory;

import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.ticketing.reservations.concurrency.IfMatch;
import io.ticketing.reservations.event.Event;
import io.ticketing.reservations.http.Page;
import io.ticketing.reservations.http.PageRequest;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.DurableTransaction;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * Quotas of an event, the admin side: an edit that makes a quota count more (created over items on sale, made finite,
 * joined by items) locks what it cannot know it touches and must have room for what it then counts.
 */
@ApplicationScoped
public class QuotaService {

    private final AdvisoryLocks locks;
    private final CapacityGuard guard;
    private final QuotaCounter counter;
    private final InventoryRows rows;
    private final FreedCapacity freed;
    private final DatePrices prices;

    QuotaService(AdvisoryLocks locks, CapacityGuard guard, QuotaCounter counter, InventoryRows rows,
            FreedCapacity freed,
            DatePrices prices) {
        this.locks = locks;
        this.guard = guard;
        this.counter = counter;
        this.rows = rows;
        this.freed = freed;
        this.prices = prices;
    }

    /** The event's quotas in the order they were created. Never locks. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Page<InventoryViews.QuotaView> quotas(Event event, PageRequest page) {
        return Page.of(EventOwnedEntity.pageOf(Quota.class, event.id, page).stream().map(InventoryViews.QuotaView::of)
                .toList(), page, InventoryViews.QuotaView::id);
    }

    /** Only a quota none of whose items was held or sold, and no voucher names; it frees, so no lock. */
    @Transactional
    public void deleteQuota(Event event, long quotaId) {
        Quota quota = quota(event, quotaId);
        if (rows.quotaInUse(quota.id)) {
            throw new InUseException("Quota " + quota.id + " limits items that are held or were ordered, or a voucher"
                    + " names it; change its size instead.");
        }
        quota.delete();
        quota.flush();
        freed.of(event);
    }

    /**
     * A finite quota over items already on sale limits them at once, and must have room for what it then counts
     * (contract section 3): the guard locks its scope and judges the write.
     */
    @DurableTransaction
    public Quota createQuota(Event event, InventoryRequests.NewQuota request) {
        Set<Long> items = InventoryService.itemsOfEvent(event, request.items());
        if (request.dateId() != null) {
            prices.requireDatesOf(event.id, List.of(request.dateId()));
        }
        Quota quota = new Quota();
        quota.eventId = event.id;
        quota.dateId = request.dateId();
        quota.name = request.name().strip();
        quota.size = request.size();
        quota.itemIds = items;
        if (request.size() != null && !items.isEmpty()) {
            guard.reserveForQuota(quota, items, quota::persistAndFlush);
        } else {
            quota.persistAndFlush();
        }
        return quota;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Quota quota(Event event, long quotaId) {
        return Quota.findInEvent(event.id, quotaId).orElseThrow(() -> new NotFoundException("quota", quotaId));
    }

    /**
     * Shrinking a finite quota locks it, as a reservation would; it grows nothing the quota counts, so it may go below
     * what the quota holds, which then sells nothing (an organizer's way to close a sale). Making an unlimited quota
     * finite, or adding items to a finite one, goes through the guard as {@link #createQuota} does. Growing it or
     * removing items frees capacity and takes no lock.
     */
    @DurableTransaction
    public Quota updateQuota(Event event, long quotaId, IfMatch ifMatch, InventoryRequests.QuotaChanges changes) {
        Quota quota = quota(event, quotaId);
        ifMatch.check(quota.version);
        Integer newSize = changes.size() == null ? quota.size : changes.size().orElse(null);
        Set<Long> newItems = changes.items() == null
                ? quota.itemIds
                : InventoryService.itemsOfEvent(event, changes.items());
        boolean addsItems = !quota.itemIds.containsAll(newItems);
        boolean becomesFinite = newSize != null && quota.size == null;
        boolean shrinks = newSize != null && quota.size != null && newSize < quota.size;
        boolean grows = quota.size != null && (newSize == null || newSize > quota.size)
                || !newItems.containsAll(quota.itemIds);
        Runnable write = () -> {
            if (changes.name() != null) {
                quota.name = changes.name().strip();
            }
            quota.size = newSize;
            quota.itemIds.retainAll(newItems);
            quota.itemIds.addAll(newItems);
            quota.flush();
        };
        if (newSize != null && (addsItems || becomesFinite)) {
            guard.reserveForQuota(quota, newItems, write);
        } else {
            if (shrinks) {
                locks.lockObjects(event.id, List.of(LockTarget.quota(quota.id, quota.dateId)));
            }
            write.run();
        }
        if (grows) {
            freed.of(event);
        }
        return quota;
    }

    /** Reads never lock: the numbers are those of the last committed state. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public QuotaAvailability availability(Event event, long quotaId) {
        return counter.count(quota(event, quotaId));
    }
}
