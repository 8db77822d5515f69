package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaMembers;
import io.ticketing.reservations.inventory.Voucher;

/**
 * Which quotas a claim counts in and which it grows (contract sections 1 and 10), as pure functions: what every flow
 * locks and checks a quota for ({@link ReservationChecks}), and what a batch adds up between its requests.
 */
final class ClaimQuotas {

    private ClaimQuotas() {
    }

    /**
     * The quotas a claim counts in: its item's of no date, and of its date, or for a claim of no date in an event with
     * dates (a pass, or what it bundles) of every date.
     */
    static <Q extends QuotaMembers> List<Q> quotasOf(Claim claim, Map<Long, ItemForSale> items, List<Q> quotas) {
        ItemForSale item = items.get(claim.itemId());
        Set<Long> everyDate = claim.dateId() == null && item != null && item.passDates() != null
                ? item.passDates()
                : Set.of();
        return quotas.stream().filter(quota -> quota.itemIds().contains(claim.itemId())
                && (quota.dateId() == null || quota.dateId().equals(claim.dateId())
                        || everyDate.contains(quota.dateId())))
                .toList();
    }

    /**
     * The finite quotas whose usage a claim grows: all of its quotas, but those its voucher blocks in (there the
     * voucher counts the capacity already). Where the voucher does not block, the claim counts like any other.
     */
    static <Q extends QuotaMembers> List<Q> quotasGrownBy(Claim claim, Map<Long, ItemForSale> items,
            Map<Long, Voucher> vouchers, List<Q> quotas, Instant now) {
        return quotasGrownBy(claim, false, items, vouchers, quotas, now);
    }

    /**
     * {@link #quotasGrownBy} of each claim, in order, where some voucher uses are kept: of {@code claims} (positions
     * written, or freed), those that use a voucher use {@code usesKept} kept redeemed (of each voucher, the first as
     * many as were kept: a flow lists the positions it rewrites before those it adds, and of what it frees those whose
     * uses it keeps first) grow also the quotas their voucher blocks in by its {@code redeemed}. There the kept use
     * leaves its place in the block to the position, and the position that leaves does not give it back.
     */
    static <Q extends QuotaMembers> List<List<Q>> quotasGrownByEach(List<Claim> claims, List<Claim> usesKept,
            Map<Long, ItemForSale> items, Map<Long, Voucher> vouchers, List<Q> quotas, Instant now) {
        Map<Long, Long> kept = new HashMap<>();
        usesKept.stream().map(Claim::voucherId).filter(Objects::nonNull).forEach(v -> kept.merge(v, 1L, Long::sum));
        List<List<Q>> grown = new ArrayList<>(claims.size());
        for (Claim claim : claims) {
            boolean keptUse = claim.voucherId() != null && kept.getOrDefault(claim.voucherId(), 0L) > 0;
            if (keptUse) {
                kept.merge(claim.voucherId(), -1L, Long::sum);
            }
            grown.add(quotasGrownBy(claim, keptUse, items, vouchers, quotas, now));
        }
        return grown;
    }

    private static <Q extends QuotaMembers> List<Q> quotasGrownBy(Claim claim, boolean keptUse,
            Map<Long, ItemForSale> items, Map<Long, Voucher> vouchers, List<Q> quotas, Instant now) {
        Voucher voucher = claim.voucherId() == null ? null : vouchers.get(claim.voucherId());
        return quotasOf(claim, items, quotas).stream().filter(QuotaMembers::isFinite)
                .filter(quota -> voucher == null || !quota.blockedBy(voucher, now)
                        || keptUse && !quota.countsUsesOnItsDate(voucher))
                .toList();
    }
}
