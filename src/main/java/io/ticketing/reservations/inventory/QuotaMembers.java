package io.ticketing.reservations.inventory;

import java.time.Instant;
import java.util.Set;

import io.ticketing.reservations.locking.LockTarget;

/**
 * What deciding which quotas a claim locks needs: a quota's id, its size (null when unlimited), its items, and
 * whether a voucher blocks in it.
 */
public interface QuotaMembers {

    long id();

    Integer size();

    Set<Long> itemIds();

    /** The date the quota belongs to; null: the whole event. */
    Long dateId();

    /** What locking this quota takes. */
    default LockTarget lockTarget() {
        return LockTarget.quota(id(), dateId());
    }

    /** Whether {@code voucher} holds capacity in this quota at {@code now} (contract section 1). */
    boolean blockedBy(Voucher voucher, Instant now);

    /**
     * Whether this quota counts {@code voucher}'s block from the voucher's uses on this quota's date, not from its
     * {@code redeemed} (contract section 10, {@code QuotaCounter.VOUCHER_USES_IN_QUOTA}): a quota of a date, a
     * voucher of no date that gives its uses back. There a use leaves the block with its position and comes back with
     * it; elsewhere a use that stays redeemed while its position is rewritten keeps its place in the block, so the
     * rewritten position must find room.
     */
    default boolean countsUsesOnItsDate(Voucher voucher) {
        return dateId() != null && voucher.dateId == null && voucher.givesBack;
    }

    default boolean isFinite() {
        return size() != null;
    }
}
