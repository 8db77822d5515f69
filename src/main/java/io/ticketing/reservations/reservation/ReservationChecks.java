package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.QuotaCounter.Membership;
import io.ticketing.reservations.inventory.QuotaCounter.QuotaMembers;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.inventory.Voucher;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.problem.NotFoundException;

/**
 * The rules a reservation checks, as pure functions of what {@link Reservations} read: which objects claims lock,
 * whether they make sense before the locks, and whether they fit in what was counted under them. No I/O, so each
 * rule reads on its own.
 */
final class ReservationChecks {

    private ReservationChecks() {
    }

    /**
     * The objects a set of claims consumes, in the contract's words: finite quotas that grow (every finite quota of
     * the claim's item but those its voucher blocks in), seats, vouchers. A flow that frees {@code freed} in the same
     * transaction first (an order change) consumes only what grows net: the quotas whose usage grows, the seats it
     * does not take back, the vouchers it uses more often than before.
     */
    static Set<LockTarget> objectsToLock(List<Claim> claims, List<Claim> freed, Map<Long, Voucher> vouchers,
            List<? extends QuotaMembers> quotas, Instant now) {
        Map<Long, Integer> growth = new HashMap<>();
        claims.forEach(claim -> quotasGrownBy(claim, vouchers, quotas, now)
                .forEach(quota -> growth.merge(quota.id(), 1, Integer::sum)));
        freed.forEach(claim -> quotasGrownBy(claim, vouchers, quotas, now)
                .forEach(quota -> growth.merge(quota.id(), -1, Integer::sum)));
        Set<LockTarget> targets = new HashSet<>();
        growth.forEach((quota, grows) -> {
            if (grows > 0) {
                targets.add(LockTarget.quota(quota));
            }
        });
        Set<Long> seatsBack = freed.stream().map(Claim::seatId).filter(Objects::nonNull).collect(Collectors.toSet());
        claims.stream().map(Claim::seatId).filter(seat -> seat != null && !seatsBack.contains(seat))
                .forEach(seat -> targets.add(LockTarget.seat(seat)));
        moreUses(claims, freed).keySet().forEach(voucher -> targets.add(LockTarget.voucher(voucher)));
        return targets;
    }

    /** The vouchers {@code claims} use more often than {@code freed} did, and how many times more. */
    static Map<Long, Long> moreUses(List<Claim> claims, List<Claim> freed) {
        Map<Long, Long> uses = new TreeMap<>();
        claims.stream().map(Claim::voucherId).filter(Objects::nonNull).forEach(v -> uses.merge(v, 1L, Long::sum));
        freed.stream().map(Claim::voucherId).filter(Objects::nonNull).forEach(v -> uses.merge(v, -1L, Long::sum));
        uses.values().removeIf(more -> more <= 0);
        return uses;
    }

    /** What the caller asks for must make sense before anything is locked. */
    static void checkRules(List<Claim> claims, Map<Long, ItemForSale> items, Map<Long, Seat> seats,
            Map<Long, Voucher> vouchers, List<Membership> quotas, Instant now) {
        Set<Long> seatsClaimed = new HashSet<>();
        for (Claim claim : claims) {
            ItemForSale item = items.get(claim.itemId());
            if (item == null) {
                throw new NotFoundException("item", claim.itemId());
            }
            if (!item.active() || quotasOf(item.id(), quotas).isEmpty()) {
                throw ReservationConflict.notOnSale(item);
            }
            Seat seat = claim.seatId() == null ? null : seats.get(claim.seatId());
            if (item.requiresSeat() && seat == null) {
                throw ReservationConflict.seatRequired(item);
            }
            if (seat != null && (!item.requiresSeat() || seat.itemId != item.id())) {
                throw ReservationConflict.seatNotAllowed(item, seat);
            }
            if (seat != null && !seatsClaimed.add(seat.id)) {
                throw ReservationConflict.seatUnavailable(seat);
            }
            Voucher voucher = claim.voucherId() == null ? null : vouchers.get(claim.voucherId());
            if (voucher != null) {
                checkVoucherFits(voucher, item, seat, quotasOf(item.id(), quotas), now);
            }
        }
    }

    private static void checkVoucherFits(Voucher voucher, ItemForSale item, Seat seat, List<Membership> quotasOfItem,
            Instant now) {
        if (voucher.hasExpired(now)) {
            throw ReservationConflict.voucherExpired(voucher);
        }
        if (voucher.itemId != null && voucher.itemId != item.id()) {
            throw ReservationConflict.voucherInvalid(voucher, "is not valid for item " + item.id());
        }
        if (voucher.quotaId != null && quotasOfItem.stream().noneMatch(quota -> quota.id() == voucher.quotaId)) {
            throw ReservationConflict.voucherInvalid(voucher, "is not valid for item " + item.id());
        }
        if (voucher.seatId != null && (seat == null || seat.id.longValue() != voucher.seatId)) {
            throw ReservationConflict.voucherInvalid(voucher, "is valid only for its own seat");
        }
    }

    /** Each locked quota has room for what the claims add to it (an unlocked one, which they do not grow, is not asked). */
    static void checkQuotas(List<Claim> claims, Map<Long, ItemForSale> items, Map<Long, Voucher> vouchers,
            List<CountedQuota> quotas, Instant now, Set<LockTarget> locked) {
        Map<CountedQuota, List<ItemForSale>> wanted = new LinkedHashMap<>();
        for (Claim claim : claims) {
            if (quotasOf(claim.itemId(), quotas).isEmpty()) {
                throw ReservationConflict.notOnSale(items.get(claim.itemId()));
            }
            quotasGrownBy(claim, vouchers, quotas, now)
                    .forEach(quota -> wanted.computeIfAbsent(quota, q -> new ArrayList<>())
                            .add(items.get(claim.itemId())));
        }
        boolean eventLocked = locked.size() > AdvisoryLocks.MAX_EXCLUSIVE_OBJECTS;
        for (Map.Entry<CountedQuota, List<ItemForSale>> demand : wanted.entrySet()) {
            CountedQuota quota = demand.getKey();
            if (!eventLocked && !locked.contains(LockTarget.quota(quota.id()))) {
                continue;
            }
            int left = quota.availability().leftForSale();
            if (left < demand.getValue().size()) {
                throw ReservationConflict.quotaExhausted(demand.getValue().get(0), quota, left,
                        demand.getValue().size());
            }
        }
    }

    static void checkVouchers(Map<Long, Long> uses, Map<Long, Voucher> vouchers, List<long[]> usesLeft) {
        for (long[] row : usesLeft) {
            long voucherId = row[0];
            long left = row[1];
            long wanted = uses.get(voucherId);
            if (left < wanted) {
                throw ReservationConflict.voucherExhausted(vouchers.get(voucherId), Math.max(left, 0), wanted);
            }
        }
    }

    /**
     * Whether a per-buyer limit applies to any claim, before anything is locked; then the buyer must be known, or
     * 409 {@code buyer_required}.
     */
    static boolean checkBuyerKnown(List<Claim> claims, Map<Long, ItemForSale> items, String buyer) {
        for (Claim claim : claims) {
            ItemForSale item = items.get(claim.itemId());
            if (item.limitedPerBuyer()) {
                if (buyer == null) {
                    throw ReservationConflict.buyerRequired(item);
                }
                return true;
            }
        }
        return false;
    }

    /** Rows of {@code held}: item id, positions the buyer already has of it (counted under the buyer's lock). */
    static void checkBuyerLimits(List<Claim> claims, Map<Long, ItemForSale> items, List<long[]> held) {
        Map<Long, Long> heldByItem = new HashMap<>();
        held.forEach(row -> heldByItem.put(row[0], row[1]));
        Map<Long, Long> wantedByItem = claims.stream()
                .collect(Collectors.groupingBy(Claim::itemId, LinkedHashMap::new, Collectors.counting()));
        for (Map.Entry<Long, Long> wanted : wantedByItem.entrySet()) {
            ItemForSale item = items.get(wanted.getKey());
            long heldOfItem = heldByItem.getOrDefault(item.id(), 0L);
            if (item.maxPerBuyer() != null && heldOfItem + wanted.getValue() > item.maxPerBuyer()) {
                throw ReservationConflict.itemBuyerLimit(item, heldOfItem, wanted.getValue());
            }
        }
        Integer eventLimit = items.values().iterator().next().eventMaxPerBuyer();
        long heldInEvent = heldByItem.values().stream().mapToLong(Long::longValue).sum();
        if (eventLimit != null && heldInEvent + claims.size() > eventLimit) {
            throw ReservationConflict.eventBuyerLimit(eventLimit, heldInEvent, claims.size());
        }
    }

    private static <Q extends QuotaMembers> List<Q> quotasOf(long itemId, List<Q> quotas) {
        return quotas.stream().filter(quota -> quota.itemIds().contains(itemId)).toList();
    }

    /**
     * The finite quotas whose usage a claim grows: all of its item's, but those its voucher blocks in (there the
     * voucher counts the capacity already). Where the voucher does not block, the claim counts like any other.
     */
    static <Q extends QuotaMembers> List<Q> quotasGrownBy(Claim claim, Map<Long, Voucher> vouchers,
            List<Q> quotas, Instant now) {
        Voucher voucher = claim.voucherId() == null ? null : vouchers.get(claim.voucherId());
        return quotasOf(claim.itemId(), quotas).stream().filter(QuotaMembers::isFinite)
                .filter(quota -> voucher == null || !quota.blockedBy(voucher, now)).toList();
    }
}
