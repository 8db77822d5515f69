package io.ticketing.reservations.reservation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.inventory.QuotaCounter.CountedQuota;
import io.ticketing.reservations.locking.AdvisoryLocks;

/**
 * The one rule (contract section 3) for a change that is not new positions: an admin edit that makes capacity
 * scarcer: a voucher's block, an allotment made or grown, a quota created over sales, items joining a quota, a size given to an
 * unlimited one. Such
 * a change could only say what it consumes by stating section 1 a second time: which
 * of a voucher's holds leave the carts for its block, on which date, what a new quota starts to count. So it says
 * nothing: under its locks, the quotas it can grow are counted, the change is written, and they are counted again by
 * the statement that counts for buyers. Every finite quota whose usage grew, with what its allotments keep (contract
 * section 12: an allotment is a block) and what running offers keep for what their bundles bring (section 9), must be
 * locked and within its size;
 * otherwise 409 {@code quota_exhausted}, and the transaction rolls the change back. Buyers' claims are judged before
 * they are written ({@link ReservationChecks#checkFits}): one count on the hot path, not two. A waiting-list offer
 * chooses only what fits in the count under its locks ({@code waitinglist/Offers}): the choice is its check.
 */
@ApplicationScoped
public class MeasuredChanges {

    private final Reservations reservations;

    MeasuredChanges(Reservations reservations) {
        this.reservations = reservations;
    }

    /**
     * Runs {@code change} (given the quotas as counted before it) between two runs of {@code count}, with
     * {@code held} locked, and judges what grew.
     */
    public <T> T judged(AdvisoryLocks.Held held, Supplier<List<CountedQuota>> count,
            Function<List<CountedQuota>, T> change) {
        return reservations.countingRefusals(() -> {
            List<CountedQuota> before = count.get();
            Map<Long, Long> usedBefore = new HashMap<>();
            // An unlimited quota counted nothing against a size: made finite, all it holds is new to it.
            before.stream().filter(CountedQuota::isFinite)
                    .forEach(quota -> usedBefore.put(quota.id(), quota.committed()));
            T result = change.apply(before);
            for (CountedQuota quota : count.get()) {
                long used = quota.committed();
                long was = usedBefore.getOrDefault(quota.id(), 0L);
                if (!quota.isFinite() || used <= was) {
                    continue;
                }
                reservations.requireLocked(List.of(quota.lockTarget()), held);
                if (used > quota.size()) {
                    throw ReservationConflict.pastSize(quota, was);
                }
            }
            return result;
        });
    }
}
