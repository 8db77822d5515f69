package io.ticketing.reservations.reservation;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.inventory.CapacityGuard;
import io.ticketing.reservations.inventory.QuotaCounter;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.jdbc.Jdbc;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.InUseException;

/**
 * Admin changes that make capacity scarcer (contract sections 2 and 4), checked as a buyer's claim is: lock what the
 * change takes, then check that it is free, or refuse with the buyer's codes. Call from a durable transaction
 * before the change is written, so that it does not count itself.
 * <ul>
 * <li>a new {@code block_quota} voucher, or one whose blocking grows: the finite quotas it blocks in (those of its
 * item, or its quota), each by what it blocks less the live holds it already had counted there;</li>
 * <li>a seat-bound voucher that starts to hold its seat, and blocking a seat: the seat;</li>
 * <li>lowering a voucher's {@code max_usages}: the voucher.</li>
 * </ul>
 * Creating finite quotas and shrinking them lock in {@code InventoryService}; freeing capacity locks nothing.
 */
@ApplicationScoped
public class AdminReservations implements CapacityGuard {

    /**
     * The voucher's cart positions that count now in the quota: of its items, and of its date or of none (a pass)
     * when the quota belongs to a date (contract section 10). Each date's quota grows by what the voucher held there.
     */
    private static final String LIVE_HOLDS_IN_QUOTA = """
            SELECT count(*) FROM cart_positions WHERE voucher_id = :voucher AND expires >= now()
              AND item_id = ANY(:items) AND (CAST(:date AS bigint) IS NULL OR date_id IS NULL OR date_id = CAST(:date AS bigint))""";

    /** What the voucher has used of its block in a quota of {@code :date} (or of none), by the counter's rule. */
    private static final String USES_IN_QUOTA = "SELECT " + QuotaCounter.VOUCHER_USES_IN_QUOTA
            + " FROM vouchers v, (SELECT CAST(:date AS bigint) AS date_id) q WHERE v.id = :voucher";

    private final Reservations reservations;
    private final AdvisoryLocks locks;
    private final QuotaCounter counter;
    private final ReservationCheckpoints checkpoints;
    private final Jdbc jdbc;
    private final ReservationReads reads;

    AdminReservations(Reservations reservations, AdvisoryLocks locks, QuotaCounter counter,
            ReservationCheckpoints checkpoints, Jdbc jdbc, ReservationReads reads) {
        this.reads = reads;
        this.checkpoints = checkpoints;
        this.jdbc = jdbc;
        this.reservations = reservations;
        this.locks = locks;
        this.counter = counter;
    }

    @Override
    public void reserveForVoucher(Voucher voucher, Seat seat, VoucherChange change) {
        reservations.countingRefusals(() -> {
            int growth = change.blockingUsesAfter() - change.blockingUsesBefore();
            List<CountedQuota> quotas = growth > 0
                    ? blockedBy(voucher).stream().filter(CountedQuota::isFinite).toList()
                    : List.of();
            Set<LockTarget> locked = new HashSet<>();
            quotas.forEach(quota -> locked.add(quota.lockTarget()));
            if (change.takesSeat()) {
                locked.add(LockTarget.seat(seat.id, seat.dateId));
            }
            if (change.lowersUses()) {
                locked.add(LockTarget.voucher(voucher.id, voucher.dateId));
            }
            if (locked.isEmpty()) {
                return null;
            }
            AdvisoryLocks.Held held = locks.lockObjects(voucher.eventId, locked);
            // Counted again under the locks: the first count only chose what to lock.
            List<CountedQuota> counted = growth > 0
                    ? blockedBy(voucher).stream().filter(CountedQuota::isFinite).toList()
                    : List.of();
            reservations.requireLocked(counted.stream().map(CountedQuota::lockTarget).toList(), held);
            for (CountedQuota quota : counted) {
                // A voucher that did not block had its live holds counted as carts: blocking, it counts them instead.
                long used = usesIn(voucher, quota);
                long grows = Math.max(change.blockingUsesAfter() - used, 0) - (change.blockingUsesBefore() > 0
                        ? Math.max(change.blockingUsesBefore() - used, 0)
                        : liveHoldsIn(voucher, quota));
                int left = quota.availability().availableNumber();
                if (left < grows) {
                    throw ReservationConflict.voucherOverbooks(quota, left, grows);
                }
            }
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
            checkpoints.afterChecks(voucher.eventId, 1);
            return null;
        });
    }

    @Override
    public void reserveForBlocking(Seat seat) {
        reservations.countingRefusals(() -> {
            locks.lockObjects(seat.eventId, Set.of(LockTarget.seat(seat.id, seat.dateId)));
            if (!reads.takenSeats(Set.of(seat.id), List.of(), Set.of()).list().isEmpty()) {
                throw ReservationConflict.seatUnavailable(seat);
            }
            checkpoints.afterChecks(seat.eventId, 1);
            return null;
        });
    }

    /** Whether someone other than the voucher itself (when it exists already) holds its seat. */
    private boolean voucherHoldsTaken(Seat seat, Voucher voucher) {
        Set<Long> itself = voucher.id == null ? Set.of() : Set.of(voucher.id);
        return !reads.takenSeats(Set.of(seat.id), List.of(), itself).list().isEmpty();
    }

    private long usesIn(Voucher voucher, CountedQuota quota) {
        return voucher.id == null
                ? 0
                : jdbc.statement(USES_IN_QUOTA).set("voucher", voucher.id).set("date", quota.dateId())
                        .reading(row -> row.getLong(1)).list().get(0);
    }

    private long liveHoldsIn(Voucher voucher, CountedQuota quota) {
        return voucher.id == null
                ? 0
                : jdbc.statement(LIVE_HOLDS_IN_QUOTA).set("voucher", voucher.id)
                        .set("items", quota.itemIds().toArray(Long[]::new)).set("date", quota.dateId())
                        .reading(row -> row.getLong(1)).list()
                        .get(0);
    }

    /** The quotas the voucher would block in (contract sections 1 and 10), counted. */
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
