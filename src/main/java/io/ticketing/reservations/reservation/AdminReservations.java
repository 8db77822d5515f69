package io.ticketing.reservations.reservation;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.inventory.CapacityGuard;
import io.ticketing.reservations.inventory.DatePrices;
import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.Quota;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.InUseException;

/**
 * Admin changes that make capacity scarcer (contract sections 2 and 4): what each locks, then the one rule of section
 * 3 ({@link MeasuredChanges}) around its write. Call from a durable transaction.
 * <ul>
 * <li>a voucher that blocks more (new and blocking, more uses, {@code block_quota} on, a later {@code valid_until}):
 * the finite quotas it blocks in (of its item, or its quota, on every date for a voucher of no date), and its event
 * and those dates shared;</li>
 * <li>a seat-bound voucher that starts to hold its seat, and blocking a seat: the seat;</li>
 * <li>lowering a voucher's {@code max_usages}: the voucher;</li>
 * <li>an allotment made or made to keep more: its quota, and the event shared;</li>
 * <li>a seating plan imported, replaced or deleted: the event exclusively;</li>
 * <li>a finite quota created over items, joined by items or made finite: its date exclusively, or the event for a
 * quota of no date or of a pass's items (holds of its items that it did not count locked nothing it could wait
 * for).</li>
 * </ul>
 * Shrinking a quota locks it in {@code QuotaService}; freeing capacity locks nothing.
 */
@ApplicationScoped
public class AdminReservations implements CapacityGuard {

    private static final AdvisoryLocks.Held NOTHING = new AdvisoryLocks.Held(false, null, Set.of());

    private final Reservations reservations;
    private final AdvisoryLocks locks;
    private final QuotaCounter counter;
    private final ReservationCheckpoints checkpoints;
    private final ReservationReads reads;
    private final MeasuredChanges measured;
    private final Jdbc jdbc;
    private final DatePrices dates;

    AdminReservations(Reservations reservations, AdvisoryLocks locks, QuotaCounter counter,
            ReservationCheckpoints checkpoints, ReservationReads reads, MeasuredChanges measured, Jdbc jdbc,
            DatePrices dates) {
        this.jdbc = jdbc;
        this.dates = dates;
        this.reads = reads;
        this.checkpoints = checkpoints;
        this.reservations = reservations;
        this.locks = locks;
        this.counter = counter;
        this.measured = measured;
    }

    @Override
    public void reserveForVoucher(Voucher voucher, Seat seat, VoucherChange change, Runnable write) {
        Set<LockTarget> locked = new HashSet<>();
        if (change.blocksMore()) {
            blockedBy(voucher).stream().filter(CountedQuota::isFinite).forEach(quota -> locked.add(quota.lockTarget()));
        }
        if (change.takesSeat()) {
            locked.add(LockTarget.seat(seat.id, seat.dateId));
        }
        if (change.lowersUses()) {
            locked.add(LockTarget.voucher(voucher.id, voucher.dateId));
        }
        // Blocking more takes its event's and dates' shared locks even with no finite quota to lock: a quota made
        // finite or created meanwhile (under the event's or a date's exclusive lock) is then counted by one of them.
        AdvisoryLocks.Held held = locked.isEmpty() && !change.blocksMore()
                ? NOTHING
                : locks.lockObjectsThen(voucher.eventId, change.blocksMore() ? datesOf(voucher) : List.of(), locked,
                        jdbc.roundTrip());
        measured.judged(held, () -> change.blocksMore() ? blockedBy(voucher) : List.of(), before -> {
            if (change.takesSeat() && voucherHoldsTaken(seat, voucher)) {
                throw ReservationConflict.seatUnavailable(seat);
            }
            if (change.lowersUses()) {
                long[] usesLeft = reads.voucherUsesLeft(Set.of(voucher.id), List.of()).list().get(0);
                long used = voucher.maxUsages - usesLeft[1];
                if (used > change.maxUsagesAfter()) {
                    throw new InUseException("Voucher '" + voucher.code + "' is redeemed or held " + used
                            + " times; max_usages cannot go below that.");
                }
            }
            write.run();
            return null;
        });
        // After the measure, which is the check: the change is written, and what it grew counted.
        checkpoints.afterChecks(voucher.eventId, 1);
    }

    @Override
    public void reserveForBlocking(Seat seat) {
        reservations.countingRefusals(() -> {
            locks.lockObjects(seat.eventId, Set.of(LockTarget.seat(seat.id, seat.dateId)));
            ReservationReads.requireUnmoved(reads.movedSeats(List.of(seat)).list(), List.of(seat));
            if (!reads.takenSeats(Set.of(seat.id), List.of(), Set.of()).list().isEmpty()) {
                throw ReservationConflict.seatUnavailable(seat);
            }
            checkpoints.afterChecks(seat.eventId, 1);
            return null;
        });
    }

    @Override
    public void reserveForQuota(Quota quota, Set<Long> itemsAfter, Runnable write) {
        // A pass (or what one bundles) names no date, so its buyers lock no date they have no quota on yet.
        boolean passes = ItemForSale.of(jdbc, quota.eventId, itemsAfter).list().stream()
                .anyMatch(item -> item.passDates() != null);
        AdvisoryLocks.Held held = quota.dateId == null || passes
                ? locks.lockEvent(quota.eventId)
                : locks.lockDate(quota.eventId, quota.dateId);
        measured.judged(held, () -> quota.id == null ? List.of() : counter.ofQuotas(List.of(quota.id)), before -> {
            write.run();
            return null;
        });
    }

    @Override
    public void reserveForSeating(long eventId, Runnable write) {
        locks.lockEvent(eventId);
        write.run();
        checkpoints.afterChecks(eventId, 1);
    }

    @Override
    public void reserveForNewDate(long eventId, boolean first, Runnable write) {
        checkpoints.beforeLocks(eventId, 1);
        if (first) {
            locks.lockEvent(eventId);
        } else {
            locks.lockObjects(eventId, Set.of());
        }
        try {
            write.run();
        } finally {
            // Decided either way: a race holds a refusal as it holds a success.
            checkpoints.afterChecks(eventId, 1);
        }
    }

    @Override
    public void reserveForAllotment(Quota quota, Runnable write) {
        // The quota's lock, as its buyers take it; an unlimited quota keeps nothing, and one made finite meanwhile
        // (under the event's or its date's exclusive lock) waits for this one's shared locks of both.
        AdvisoryLocks.Held held = locks.lockObjectsThen(quota.eventId,
                quota.dateId == null ? List.of() : List.of(quota.dateId),
                quota.isUnlimited() ? List.of() : List.of(LockTarget.quota(quota.id, quota.dateId)), jdbc.roundTrip());
        measured.judged(held, () -> counter.ofQuotas(List.of(quota.id)), before -> {
            write.run();
            return null;
        });
        checkpoints.afterChecks(quota.eventId, 1);
    }

    /** The dates a voucher can block on: its own, or every date of its event for a voucher of no date. */
    private List<Long> datesOf(Voucher voucher) {
        return voucher.dateId != null
                ? List.of(voucher.dateId)
                : dates.allOf(voucher.eventId);
    }

    /** Whether someone other than the voucher itself (when it exists already) holds its seat. */
    private boolean voucherHoldsTaken(Seat seat, Voucher voucher) {
        Set<Long> itself = voucher.id == null ? Set.of() : Set.of(voucher.id);
        ReservationReads.requireUnmoved(reads.movedSeats(List.of(seat)).list(), List.of(seat));
        return !reads.takenSeats(Set.of(seat.id), List.of(), itself).list().isEmpty();
    }

    /** The quotas the voucher can block in (contract sections 1 and 10), counted. */
    private List<CountedQuota> blockedBy(Voucher voucher) {
        List<CountedQuota> quotas = voucher.quotaId == null
                ? counter.ofItems(List.of(voucher.itemId), List.of())
                : counter.ofQuotas(List.of(voucher.quotaId));
        return quotas.stream().filter(quota -> (voucher.quotaId == null
                ? quota.itemIds().contains(voucher.itemId)
                : quota.id() == voucher.quotaId)
                && (voucher.dateId == null || quota.dateId() == null || voucher.dateId.equals(quota.dateId())))
                .toList();
    }
}
