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
import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.InUseException;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * Quotas of an event, the admin side: an edit that makes a quota count more (created over items on sale, made finite,
 * joined by items) locks what it cannot know it touches and must have room for what it then counts.
 */
@ApplicationScoped
public class QuotaService {

    private final AdvisoryLocks locks;
    private final QuotaCounter counter;
    private final InventoryRows rows;
    private final FreedCapacity freed;
    private final DatePrices prices;

    QuotaService(AdvisoryLocks locks, QuotaCounter counter, InventoryRows rows, FreedCapacity freed,
            DatePrices prices) {
        this.locks = locks;
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
     * A finite quota over items already on sale limits them at once, and which holds it touches cannot be
     * known before counting: it takes the event's exclusive lock.
     */
    @DurableTransaction
    public Quota createQuota(Event event, InventoryRequests.NewQuota request) {
        Set<Long> items = InventoryService.itemsOfEvent(event, request.items());
        if (request.dateId() != null) {
            prices.requireDatesOf(event.id, List.of(request.dateId()));
        }
        if (request.size() != null && !items.isEmpty()) {
            lockScope(event, request.dateId());
        }
        Quota quota = new Quota();
        quota.eventId = event.id;
        quota.dateId = request.dateId();
        quota.name = request.name().strip();
        quota.size = request.size();
        quota.itemIds = items;
        quota.persistAndFlush();
        requireRoomFor(quota);
        return quota;
    }

    /**
     * A quota that starts to count what was held and sold before (created over items on sale, made finite, or joined
     * by items) must have room for it, as a claim must (contract section 3): counted after the locks, in the change's
     * transaction, and refused with 409 {@code quota_exhausted} where it does not fit. Shrinking a quota grows
     * nothing it counts: it may go below what the quota holds, which then sells nothing (section 1's
     * {@code available_number} is never below 0): an organizer's way to close a sale.
     */
    private void requireRoomFor(Quota quota) {
        if (quota.size == null || quota.itemIds.isEmpty()) {
            return;
        }
        QuotaAvailability counted = counter.count(quota);
        long used = counted.paidOrders() + counted.pendingOrders() + counted.cartPositions()
                + counted.blockingVouchers();
        if (used > quota.size) {
            throw new ApiException(409, "quota_exhausted", "Conflict", "Quota '" + quota.name + "' (" + quota.id
                    + ") would count " + used + " places already held, sold or blocked, more than its size of "
                    + quota.size + "; nothing was changed.");
        }
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Quota quota(Event event, long quotaId) {
        return Quota.findInEvent(event.id, quotaId).orElseThrow(() -> new NotFoundException("quota", quotaId));
    }

    /**
     * Shrinking a finite quota locks it, as a reservation would. Making an unlimited quota finite, or adding items to
     * a finite one, locks the whole event (see {@link #createQuota}): buyers who counted the quota as unlimited, or
     * did not count it at all, locked nothing it could wait for. Growing it or removing items frees capacity and
     * takes no lock.
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
        if (newSize != null && (addsItems || becomesFinite)) {
            lockScope(event, quota.dateId);
        } else if (shrinks) {
            locks.lockObjects(event.id, List.of(LockTarget.quota(quota.id, quota.dateId)));
        }
        if (changes.name() != null) {
            quota.name = changes.name().strip();
        }
        boolean grows = quota.size != null && (newSize == null || newSize > quota.size)
                || !newItems.containsAll(quota.itemIds);
        quota.size = newSize;
        quota.itemIds.retainAll(newItems);
        quota.itemIds.addAll(newItems);
        quota.flush();
        if (newSize != null && (addsItems || becomesFinite)) {
            requireRoomFor(quota);
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

    /**
     * What a finite quota over items on sale cannot know it touches: every hold of them on its date (and those of no
     * date, passes), or of the whole event for a quota of no date. Its date's exclusive lock covers the first, as
     * every flow that holds on a date takes it shared (contract section 10); the event's the second.
     */
    private void lockScope(Event event, Long dateId) {
        if (dateId == null) {
            locks.lockEvent(event.id);
        } else {
            locks.lockDate(event.id, dateId);
        }
    }
}
