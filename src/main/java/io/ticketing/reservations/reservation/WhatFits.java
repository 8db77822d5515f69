package io.ticketing.reservations.reservation;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ticketing.reservations.inventory.ItemForSale;
import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.problem.ApiException;

/**
 * What a caller can take, by the rule an add is judged by (contract section 3, "What a caller is shown is what it can
 * take"): one position of an item is the claim an add would make, expanded as every change is (a bundle brings what it
 * bundles, a pass counts on every date: {@link ReservationChecks#withBundles}, {@link ClaimQuotas}), checked by the
 * same rules ({@link ClaimRules#checkOnSale}) and judged against the same count and what is left for the caller's
 * channel ({@link CountedQuota#leftFor}). The catalog, the availability, the stream, the seat list, the plan, a
 * waiting list's joins and its offers all read it here, so a feature added to the rule reaches them at once. Pure
 * functions of one count; unlocked, so what they say may be stale by the time a buyer adds, never of another rule.
 */
public final class WhatFits {

    /**
     * An event as one count saw it: its items as a reservation checks them (with what they bundle), its quotas counted,
     * its dates and whether each is on sale, and the database's clock then.
     */
    public record Counted(Map<Long, ItemForSale> items, List<CountedQuota> quotas, Map<Long, Boolean> dates,
            Instant now) {
    }

    private WhatFits() {
    }

    /**
     * Whether one position of item {@code itemId} on date {@code dateId} (null: of no date, or a pass) is on sale in
     * {@code channel} but for capacity: the refusal an add would meet before any count, or null. A null channel is
     * any (an offer of the waiting list, which any shop of the item can sell).
     */
    public static ApiException notOnSale(Counted counted, long itemId, Long dateId, String channel) {
        List<Claim> unit = unit(counted, itemId, dateId);
        try {
            for (Claim claim : unit) {
                ClaimRules.checkOnSale(claim, counted.items(), counted.quotas(), counted.dates(), channel);
            }
            return null;
        } catch (ApiException refused) {
            return refused; // a conflict, or a rule an add would refuse as bad input (a pass bundled with a date)
        }
    }

    /**
     * How many positions of item {@code itemId} on date {@code dateId} a buyer of {@code channel} with no voucher could
     * add now, alone, by its quotas: 0 where it is not on sale there ({@link #notOnSale}), null where no finite quota
     * limits it. Seats are the caller's to count: each position takes one.
     */
    public static Integer units(Counted counted, long itemId, Long dateId, String channel) {
        if (notOnSale(counted, itemId, dateId, channel) != null) {
            return 0;
        }
        Integer units = null;
        for (Map.Entry<CountedQuota, Integer> places : places(counted, itemId, dateId).entrySet()) {
            int left = places.getKey().leftFor(channel, List.of());
            units = units == null ? left / places.getValue() : Math.min(units, left / places.getValue());
        }
        return units;
    }

    /**
     * The places one position of item {@code itemId} on date {@code dateId} takes in each finite quota it grows: its
     * own and what its bundle brings.
     */
    public static Map<CountedQuota, Integer> places(Counted counted, long itemId, Long dateId) {
        Map<CountedQuota, Integer> places = new HashMap<>();
        for (Claim claim : unit(counted, itemId, dateId)) {
            ClaimQuotas.quotasGrownBy(claim, counted.items(), Map.of(), counted.quotas(), counted.now())
                    .forEach(quota -> places.merge(quota, 1, Integer::sum));
        }
        return places;
    }

    /** One position of the item, followed by what it brings: the claim an add of it would make. */
    private static List<Claim> unit(Counted counted, long itemId, Long dateId) {
        ItemForSale item = counted.items().get(itemId);
        Long date = item != null && item.everyDate() ? null : dateId;
        return ReservationChecks.withBundles(List.of(Claim.of(itemId, null, null, date)), counted.items(), Map.of());
    }
}
