package io.ticketing.reservations.inventory;

import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

/**
 * Counts a quota's usage (SPEC section 1). It takes no lock: flows that consume capacity call it only
 * after the lock engine holds the quota's lock, and at READ COMMITTED each query sees everything the
 * previous holder committed. Cart positions count while {@code expires >= now()}, so an expired hold
 * stops counting at its deadline with no job; positions using a {@code block_quota} voucher are left
 * out because the voucher already counts them.
 */
@ApplicationScoped
public class QuotaCounter {

    private static final String COUNT = """
            WITH quota_item AS (SELECT item_id FROM quota_items WHERE quota_id = :quota)
            SELECT
              (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE o.status = 'paid' AND p.item_id IN (SELECT item_id FROM quota_item)),
              (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE o.status = 'pending' AND p.item_id IN (SELECT item_id FROM quota_item)),
              (SELECT count(*) FROM cart_positions c LEFT JOIN vouchers v ON v.id = c.voucher_id
                WHERE c.item_id IN (SELECT item_id FROM quota_item) AND c.expires >= now()
                  AND NOT coalesce(v.block_quota, false) AND c.id <> ALL(:excluded)),
              (SELECT coalesce(sum(greatest(v.max_usages - v.redeemed, 0)), 0) FROM vouchers v
                WHERE v.block_quota AND (v.valid_until IS NULL OR v.valid_until >= now())
                  AND (v.quota_id = :quota OR v.item_id IN (SELECT item_id FROM quota_item)))
            """;

    private final EntityManager entityManager;

    QuotaCounter(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    public QuotaAvailability count(Quota quota) {
        return count(quota.id, quota.size, List.of());
    }

    /**
     * Counts one quota, leaving out {@code excludedCartPositions}: the positions a flow is re-checking, which
     * must not count against themselves. One statement, so all four numbers come from one snapshot.
     */
    public QuotaAvailability count(long quotaId, Integer size, Collection<Long> excludedCartPositions) {
        Object[] row = (Object[]) entityManager.createNativeQuery(COUNT).setParameter("quota", quotaId)
                .setParameter("excluded", excludedCartPositions.toArray(Long[]::new)).getSingleResult();
        return QuotaAvailability.of(size, number(row[0]), number(row[1]), number(row[2]), number(row[3]));
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
