package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.List;

import io.ticketing.reservations.inventory.QuotaAvailability.AllotmentUse;

/**
 * How {@link QuotaCounter} counts a quota's allotments in force (contract section 12), in the same snapshot as the
 * rest of the quota: an allotment is a block, counted beside the vouchers' blocks, not a second way to count.
 */
final class AllotmentCount {

    /**
     * One row per allotment in force of a quota of the {@code quota} CTE: its size and what its channel uses of it,
     * counted as section 1 counts the quota (live holds but the re-checked {@code :excluded}, pending and paid
     * positions, of the quota's items on its date) from the channel's carts and orders in the event only. A position
     * that a voucher blocking in the quota covers is the voucher's, not the allotment's: else a voucher's hold would
     * use the allotment and the voucher's block at once. {@code channel <> 'web'} lets the partial indexes of V24
     * serve it (an allotment is never the web shop's). Only what the channel uses of the allotment matters, at most its
     * size: each count stops there, so a channel's sales past its allotment, or of other quotas, cost a count under
     * the quota's lock at most twice the allotment's size in rows, not all its sales.
     */
    static final String IN_FORCE = """
            allotted AS (
              SELECT q.id AS quota_id, a.id, a.channel, a.size, least(a.size,
                (SELECT count(*) FROM (SELECT FROM carts k JOIN cart_positions c ON c.cart_id = k.id
                   WHERE k.event_id = q.event_id AND k.channel = a.channel AND k.channel <> 'web'
                     AND hold_bucket(c.expires, 1) >= now() AND c.id <> ALL(:excluded)
                     AND c.item_id IN (SELECT item_id FROM member WHERE quota_id = q.id)
                     AND (q.date_id IS NULL OR c.date_id IS NULL OR c.date_id = q.date_id)
                     AND (c.voucher_id IS NULL
                          OR c.voucher_id NOT IN (SELECT voucher_id FROM blocking WHERE quota_id = q.id))
                   LIMIT a.size) held)
                + (SELECT count(*) FROM (SELECT FROM orders o JOIN order_positions p ON p.order_id = o.id
                   WHERE o.event_id = q.event_id AND o.channel = a.channel AND o.channel <> 'web'
                     AND o.status IN ('pending', 'paid')
                     AND p.item_id IN (SELECT item_id FROM member WHERE quota_id = q.id)
                     AND (q.date_id IS NULL OR p.date_id IS NULL OR p.date_id = q.date_id)
                     AND (p.voucher_id IS NULL
                          OR p.voucher_id NOT IN (SELECT voucher_id FROM blocking WHERE quota_id = q.id))
                   LIMIT a.size) sold)) AS used
              FROM quota q JOIN allotments a ON a.quota_id = q.id AND (a.release_at IS NULL OR a.release_at > now()))""";

    /** The column {@link #IN_FORCE}'s rows of quota {@code q} are read from: "id:size:used:channel", comma separated. */
    static final String COLUMN = """
            (SELECT string_agg(a.id || ':' || a.size || ':' || a.used || ':' || a.channel, ',' ORDER BY a.id)
               FROM allotted a WHERE a.quota_id = q.id)""";

    private AllotmentCount() {
    }

    /** {@link #COLUMN} as read; slugs have no colon or comma (V23). */
    static List<AllotmentUse> parse(String column) {
        if (column == null) {
            return List.of();
        }
        List<AllotmentUse> uses = new ArrayList<>();
        for (String allotment : column.split(",")) {
            String[] parts = allotment.split(":", 4);
            uses.add(AllotmentUse.of(Long.parseLong(parts[0]), parts[3], Integer.parseInt(parts[1]),
                    Long.parseLong(parts[2])));
        }
        return List.copyOf(uses);
    }
}
