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

    default boolean isFinite() {
        return size() != null;
    }
}
