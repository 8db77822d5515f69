package io.ticketing.reservations.inventory;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/** A quota as read before the locks ({@link QuotaCounter#membershipsOf}): who is in it, not how much is left. */
public record Membership(long id, Integer size, Set<Long> itemIds, Long dateId) implements QuotaMembers {

    /** Judged from the voucher as read before the locks; the count under the locks has the last word. */
    @Override
    public boolean blockedBy(Voucher voucher, Instant now) {
        return voucher.blockQuota && !voucher.hasExpired(now)
                && (voucher.dateId == null || dateId == null || voucher.dateId.equals(dateId))
                && (Objects.equals(voucher.quotaId, id)
                        || voucher.itemId != null && itemIds.contains(voucher.itemId));
    }
}
