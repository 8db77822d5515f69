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
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.inventory.QuotaMembers;
import io.ticketing.reservations.inventory.Seat;
import io.ticketing.reservations.locking.AdvisoryLocks;
import io.ticketing.reservations.locking.LockTarget;

/**
 * The rules a reservation checks, as pure functions of what {@link Reservations} read: which objects claims lock,
 * whether they make sense before the locks, and whether they fit in what was counted under them. No I/O, so each
 * rule reads on its own.
 *
 * <p>Dates (contract section 10): a claim on a date counts in its item's quotas of that date and of no date; a claim
 * of no date in an event with dates (a pass, or what a pass bundles) counts in its item's quotas of every date, on
 * sale or not ({@link ItemForSale#passDates}), and of no date, and holds a pass's seat guid on every date: so a date
 * put back on sale is never past a quota that a pass grew while it was off.
 */
final class ReservationChecks {

    private ReservationChecks() {
    }

    /**
     * New claims with the positions their bundles bring (contract section 10): each bundle position followed by
     * {@code count} positions of each bundled item, on its date, pointing back at it; less, for the claim at index
     * {@code i}, what {@code stillBrought.get(i)} says it still brings as it is (a bundle's position an order change
     * rewrites keeps what its new item brings too: contract section 3, "A ticket is one ticket").
     */
    static List<Claim> withBundles(List<Claim> claims, Map<Long, ItemForSale> items,
            Map<Integer, Map<Long, Integer>> stillBrought) {
        if (claims.stream().noneMatch(claim -> items.containsKey(claim.itemId())
                && !items.get(claim.itemId()).bundle().isEmpty())) {
            return claims;
        }
        List<Claim> expanded = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            int parent = expanded.size();
            expanded.add(claim);
            ItemForSale item = items.get(claim.itemId());
            if (item == null) {
                continue; // refused by checkRules
            }
            Map<Long, Integer> kept = stillBrought.getOrDefault(i, Map.of());
            for (ItemForSale.Bundled bundled : item.bundle()) {
                for (int copy = kept.getOrDefault(bundled.itemId(), 0); copy < bundled.count(); copy++) {
                    expanded.add(claim.bundled(bundled.itemId(), parent));
                }
            }
        }
        return expanded;
    }

    /**
     * The objects a change consumes, in the contract's words: finite quotas that grow (every finite quota of the
     * claim's item on its dates but those its voucher blocks in, unless it keeps a use), seats, vouchers, each with its
     * date. A change that frees in the same transaction first (an order change) consumes only what grows net: the
     * quotas whose usage grows ({@link ClaimQuotas#quotasGrownByEach}), the seats it does not take back, the vouchers
     * it uses more often than the positions of {@code usesKept} (those freed whose voucher uses were not given back)
     * did.
     */
    static Set<LockTarget> objectsToLock(Change change, Map<Long, ItemForSale> items,
            List<? extends QuotaMembers> quotas, Instant now) {
        Map<QuotaMembers, Integer> growth = new HashMap<>();
        Map<Long, QuotaMembers> byId = new HashMap<>();
        quotas.forEach(quota -> byId.put(quota.id(), quota));
        ClaimQuotas.quotasGrownByEach(change.claims(), change.usesKept(), items, change.vouchers(), quotas, now)
                .forEach(grown -> grown.forEach(quota -> growth.merge(byId.get(quota.id()), 1, Integer::sum)));
        ClaimQuotas.quotasGrownByEach(change.freed(), change.usesKept(), items, change.vouchers(), quotas, now)
                .forEach(grown -> grown.forEach(quota -> growth.merge(byId.get(quota.id()), -1, Integer::sum)));
        Set<LockTarget> targets = new HashSet<>();
        growth.forEach((quota, grows) -> {
            if (grows > 0) {
                targets.add(quota.lockTarget());
            }
        });
        Map<Long, Seat> seats = change.seats();
        Set<Long> seatsBack = new HashSet<>();
        change.freed().forEach(claim -> seatsBack.addAll(seatIds(claim, items, seats)));
        change.claims().forEach(claim -> seatIds(claim, items, seats).stream()
                .filter(seat -> !seatsBack.contains(seat))
                .forEach(seat -> targets.add(LockTarget.seat(seat, seats.get(seat).dateId))));
        moreUses(change).keySet().forEach(
                voucher -> targets.add(LockTarget.voucher(voucher, change.vouchers().get(voucher).dateId)));
        return targets;
    }

    /** The dates the claims name: each is locked shared beside what the claims lock in it. */
    static Set<Long> datesNamed(List<Claim> claims) {
        return claims.stream().map(Claim::dateId).filter(Objects::nonNull)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The dates whose quotas the claims can grow, beside the quotas of no date: the dates they name and every
     * date of a pass ({@link ClaimQuotas#quotasOf}). What the count under the locks reads: a claim on one date of an
     * event of many counts that date's quotas, not every date's.
     */
    static Set<Long> datesCounted(List<Claim> claims, Map<Long, ItemForSale> items) {
        Set<Long> dates = datesNamed(claims);
        for (Claim claim : claims) {
            ItemForSale item = items.get(claim.itemId());
            if (claim.dateId() == null && item != null && item.passDates() != null) {
                dates.addAll(item.passDates());
            }
        }
        return dates;
    }

    /**
     * The seats a claim takes: its seat, or for a pass the seat with its guid on every date. A pass's seat that
     * is missing on a date is left out here, and refused by {@link #checkRules}.
     */
    static Set<Long> seatIds(Claim claim, Map<Long, ItemForSale> items, Map<Long, Seat> seats) {
        if (claim.seatId() != null) {
            return Set.of(claim.seatId());
        }
        if (claim.passSeatGuid() == null) {
            return Set.of();
        }
        ItemForSale item = items.get(claim.itemId());
        Set<Long> dates = item == null || item.passDates() == null ? Set.of() : item.passDates();
        return seats.values().stream()
                .filter(seat -> seat.guid.equals(claim.passSeatGuid()) && seat.dateId != null
                        && dates.contains(seat.dateId))
                .map(seat -> seat.id).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The vouchers the change's claims use more often than its {@code usesKept} did, and how many times more:
     * positions whose uses are still redeemed while the change rewrites them. A use given back before the count is
     * counted once, by the count, never subtracted again here (contract section 9).
     */
    static Map<Long, Long> moreUses(Change change) {
        Map<Long, Long> uses = new TreeMap<>();
        change.claims().stream().map(Claim::voucherId).filter(Objects::nonNull)
                .forEach(v -> uses.merge(v, 1L, Long::sum));
        change.usesKept().stream().map(Claim::voucherId).filter(Objects::nonNull)
                .forEach(v -> uses.merge(v, -1L, Long::sum));
        uses.values().removeIf(more -> more <= 0);
        return uses;
    }

    /**
     * Each quota the change grows has room for what it adds to it, if {@code held} covers it (one that is not covered
     * is not grown by it: see {@link Reservations#requireLocked}): what it has left for a buyer of {@code channel}, its
     * allotment there first (contract section 12), and what an offer among the change's vouchers keeps back (section
     * 9).
     */
    private static void checkQuotas(Change change, Map<Long, ItemForSale> items, List<CountedQuota> quotas,
            String channel, Instant now, AdvisoryLocks.Held held) {
        Map<CountedQuota, List<ItemForSale>> wanted = new LinkedHashMap<>();
        List<Claim> claims = change.claims();
        List<List<CountedQuota>> grownByEach = ClaimQuotas.quotasGrownByEach(claims, change.usesKept(), items,
                change.vouchers(), quotas, now);
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            if (!change.sold() && ClaimQuotas.quotasOf(claim, items, quotas).isEmpty()) {
                throw ReservationConflict.notOnSale(items.get(claim.itemId()));
            }
            grownByEach.get(i).forEach(quota -> wanted.computeIfAbsent(quota, q -> new ArrayList<>())
                    .add(items.get(claim.itemId())));
        }
        Set<Long> vouchers = change.voucherIds();
        for (Map.Entry<CountedQuota, List<ItemForSale>> demand : wanted.entrySet()) {
            CountedQuota quota = demand.getKey();
            if (!held.covers(quota.lockTarget())) {
                continue;
            }
            int left = quota.leftFor(channel, vouchers);
            if (left < demand.getValue().size()) {
                throw ReservationConflict.quotaExhausted(demand.getValue().get(0), quota, left,
                        demand.getValue().size());
            }
        }
    }

    /** What the count under the locks left for one request: see {@link #checkFits}. */
    record Left(List<CountedQuota> quotas, Long takenSeat, Map<Long, Long> usesLeft, Map<Long, Long> heldByBuyer) {

        /** Rows of id and number, as the statements after the locks return them, by id. */
        static Map<Long, Long> byId(List<long[]> rows) {
            Map<Long, Long> byId = new HashMap<>();
            rows.forEach(row -> byId.merge(row[0], row[1], Long::sum));
            return byId;
        }
    }

    /**
     * The one judgement of every change that consumes (contract section 3), once its count under the locks is back,
     * for a request alone ({@link Reservation}) as for each request of a batch ({@link Together}): each quota the
     * change grows has room for it in what is left for the buyer's {@code channel}; no seat it takes is taken
     * ({@code left.takenSeat}: one that is, or null); each voucher has the uses it takes more of it than its
     * {@code usesKept} kept ({@link #moreUses}, against {@code left.usesLeft}); the buyer stays within its limits
     * ({@code left.heldByBuyer}: what it holds per item, or null where no limit applies). Throws the refusal in the
     * contract's words.
     */
    static void checkFits(Change change, Map<Long, ItemForSale> items, Left left, String channel, Instant now,
            AdvisoryLocks.Held held) {
        checkQuotas(change, items, left.quotas(), channel, now, held);
        if (left.takenSeat() != null) {
            throw ReservationConflict.seatUnavailable(change.seats().get(left.takenSeat()));
        }
        moreUses(change).forEach((voucherId, wanted) -> {
            long usesLeft = left.usesLeft().getOrDefault(voucherId, 0L);
            if (usesLeft < wanted) {
                throw ReservationConflict.voucherExhausted(change.vouchers().get(voucherId), Math.max(usesLeft, 0),
                        wanted);
            }
        });
        if (left.heldByBuyer() != null) {
            checkBuyerLimits(change.claims(), items, left.heldByBuyer());
        }
    }

    /**
     * Whether a per-buyer limit applies to any claim, before anything is locked; then the buyer must be known, or
     * 409 {@code buyer_required}.
     */
    static boolean checkBuyerKnown(List<Claim> claims, Map<Long, ItemForSale> items, String buyer) {
        for (Claim claim : limitedClaims(claims)) {
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

    /**
     * {@code heldByItem}: the positions the buyer already has of each item (counted under the buyer's lock). What a
     * bundle brings counts towards no limit: the bundle position does.
     */
    private static void checkBuyerLimits(List<Claim> claims, Map<Long, ItemForSale> items, Map<Long, Long> heldByItem) {
        List<Claim> limited = limitedClaims(claims);
        Map<Long, Long> wantedByItem = limited.stream()
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
        if (eventLimit != null && heldInEvent + limited.size() > eventLimit) {
            throw ReservationConflict.eventBuyerLimit(eventLimit, heldInEvent, limited.size());
        }
    }

    /** The claims per-buyer limits count: all but what bundles bring. */
    private static List<Claim> limitedClaims(List<Claim> claims) {
        return claims.stream().filter(claim -> claim.bundledIn() == null).toList();
    }
}
