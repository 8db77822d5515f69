package io.ticketing.reservations.inventory;

import java.util.ArrayList;
import java.util.List;

import io.ticketing.reservations.inventory.QuotaAvailability.AllotmentUse;

/**
 * How {@link QuotaCounter} counts a quota's allotments in force (contract section 12), in the same statement and
 * snapshot as the rest of the quota: an allotment is a block, counted beside the vouchers' blocks, not a second way
 * to count.
 *
 * <p>What an allotment's channel uses of it is counted as section 1 counts the quota (live holds but the re-checked
 * {@code :excluded}, pending and paid positions, of the quota's items on its date), from the channel's carts and
 * orders in the event only, by migration V24's {@code allotment_use}. A position that a voucher blocking in the quota
 * covers is the voucher's, not the allotment's: else a voucher's hold would use the allotment and the voucher's
 * block at once. Only what the channel uses of the allotment matters, at most its size: each count stops there, so
 * a channel's sales past its allotment, or of other quotas, cost a count under the quota's lock at most twice the
 * allotment's size in rows, not all its sales. The web shop has no allotment, so the partial indexes of V24, which
 * hold no web row, serve every count. The function runs only for a quota that has allotments (V24's counter): the
 * counting statement's plan, which every sale starts, does not carry it.
 */
final class AllotmentCount {

    /**
     * The column of quota {@code q} of the {@code quota} CTE, in a statement grouped by quota over {@code usage}
     * {@code u} beside the {@code blocking} CTE: "id:size:used:channel", comma separated, or null.
     */
    static final String COLUMN = """
            CASE WHEN q.allotments > 0 THEN allotment_use(q.id, q.event_id, q.date_id,
              array_remove(array_agg(u.item_id), NULL),
              coalesce((SELECT array_agg(b.voucher_id) FROM blocking b WHERE b.quota_id = q.id), '{}'), :excluded)
            END""";

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
