package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyEvent.PATH;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.Oracle.QuotaUsage;
import io.ticketing.reservations.support.Sql;

/**
 * What the property test reads of one of its events to choose its steps and probes: from the rows, by the contract's
 * text (what a race can still decide, whether an item sells in a channel), and from the storefront's own reads (the
 * seats shown free, the plan).
 */
final class PropertyReads {

    private final PropertyEvent event;
    private final Sql sql;

    PropertyReads(PropertyEvent event, Sql sql) {
        this.event = event;
        this.sql = sql;
    }

    /**
     * What is left for {@code position} by sections 1 and 10 (a pass on every date, on sale or not; a bundle with
     * what it brings), or null when it could not be held alone: an item it takes off sale or in no quota of its
     * dates, its date off sale, its seat taken. A race is only run where every racer could win alone, else nobody
     * reaches the checks to decide it.
     */
    Integer left(Map<String, Object> position) {
        long item = (Long) position.get("item_id");
        Long date = (Long) position.get("date_id");
        List<Long> on = date != null ? List.of(date) : event.passes.contains(item) ? event.dates : List.of();
        if (date != null && !dateOnSale(date)
                || event.passes.contains(item) && on.stream().noneMatch(this::dateOnSale)) {
            return null;
        }
        String guid = (String) position.get("seat_guid");
        if (guid != null
                && !(on.isEmpty() ? seatFree(item, guid, null) : on.stream().allMatch(d -> seatFree(item, guid, d)))) {
            return null;
        }
        Map<Long, Integer> taken = new LinkedHashMap<>(Map.of(item, 1));
        taken.putAll(event.brings.getOrDefault(item, Map.of()));
        Map<Long, Integer> needs = new HashMap<>();
        Set<Long> onSale = new HashSet<>();
        for (Object row : sql.rows("SELECT q.id, coalesce(q.date_id, 0), m.item_id FROM quotas q"
                + " JOIN quota_items m ON m.quota_id = q.id JOIN items i ON i.id = m.item_id"
                + " WHERE q.event_id = ?1 AND i.active", event.id)) {
            Object[] columns = (Object[]) row;
            long quotaDate = ((Number) columns[1]).longValue();
            long member = ((Number) columns[2]).longValue();
            if (taken.containsKey(member) && (quotaDate == 0 || on.isEmpty() || on.contains(quotaDate))) {
                needs.merge(((Number) columns[0]).longValue(), taken.get(member), Integer::sum);
                onSale.add(member);
            }
        }
        // Every item it takes must be active and in a quota that counts it, or it is refused before any lock.
        if (!onSale.containsAll(taken.keySet())) {
            return null;
        }
        int left = Integer.MAX_VALUE;
        for (QuotaUsage quota : Oracle.quotas(sql, event.slug).values()) {
            Integer need = needs.get(quota.id());
            if (need != null && quota.size() != null) {
                left = Math.min(left, quota.availableNumber() / need);
            }
        }
        return left;
    }

    /**
     * Section 1's available seat (of {@code date}, null: of no date) that {@code item} may take: a pass holds its guid
     * on every date, and a seat a seating plan gave another item is refused before any lock.
     */
    private boolean seatFree(long item, String guid, Long date) {
        return sql.number("""
                SELECT count(*) FROM seats s WHERE s.event_id = ?1 AND s.guid = ?2
                  AND coalesce(s.date_id, 0) = ?3 AND s.item_id = ?4 AND NOT s.blocked
                  AND NOT EXISTS (SELECT 1 FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                    WHERE c.expires >= now() AND (c.seat_id = s.id OR c.pass_seat_guid = s.guid AND k.event_id = ?1))
                  AND NOT EXISTS (SELECT 1 FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE o.status IN ('pending', 'paid')
                      AND (p.seat_id = s.id OR p.pass_seat_guid = s.guid AND o.event_id = ?1))
                  AND NOT EXISTS (SELECT 1 FROM vouchers v WHERE v.seat_id = s.id)""", event.id, guid,
                date == null ? 0L : date, item) > 0;
    }

    private boolean dateOnSale(long date) {
        return sql.number("SELECT count(*) FROM event_dates WHERE id = ?1 AND active", date) > 0;
    }

    /**
     * Whether {@code item} is on sale in {@code channel} (section 12): active, sold there, in a quota, and what its
     * bundle brings active and in a quota.
     */
    boolean sells(long item, String channel) {
        // In no quota, or bringing an item in none or inactive, an item is off sale: an admin's edit, not a lie.
        return sql.number("SELECT count(*) FROM items i WHERE i.id = ?1 AND i.active"
                + " AND (i.channels IS NULL OR ?2 = ANY(i.channels))"
                + " AND EXISTS (SELECT 1 FROM quota_items m WHERE m.item_id = i.id)"
                + " AND NOT EXISTS (SELECT 1 FROM item_bundles b JOIN items t ON t.id = b.bundled_item_id"
                + "   WHERE b.item_id = i.id AND (NOT t.active"
                + "     OR NOT EXISTS (SELECT 1 FROM quota_items m WHERE m.item_id = t.id)))", item, channel) > 0;
    }

    /** The item's own per-buyer limit, or the event's, whichever is less; null where none applies. */
    Integer limitPerBuyer(long item) {
        List<?> rows = sql.rows("SELECT least(i.max_per_buyer, e.max_per_buyer) FROM items i"
                + " JOIN events e ON e.id = i.event_id WHERE i.id = ?1", item);
        Object limit = rows.isEmpty() ? null : rows.get(0);
        return limit == null ? null : ((Number) limit).intValue();
    }

    /** Whether a quota of {@code item} or of what it brings holds or keeps more than its size (an admin shrank it). */
    boolean overAnyQuotaOf(long item) {
        Set<Long> items = new HashSet<>(event.brings.getOrDefault(item, Map.of()).keySet());
        items.add(item);
        List<?> quotas = sql.rows("SELECT DISTINCT quota_id FROM quota_items WHERE item_id = ANY(?1)",
                (Object) items.toArray(Long[]::new));
        Map<Long, QuotaUsage> usage = Oracle.quotas(sql, event.slug);
        return quotas.stream().map(quota -> usage.get(((Number) quota).longValue()))
                .anyMatch(quota -> quota != null && quota.pastItsSize());
    }

    /** The seats the seat list shows {@code channel} free on {@code date} (every date's: null), as it shows them. */
    List<Map<String, Object>> freeSeats(String channel, Long date) {
        Map<String, Object> query = new HashMap<>(Map.of("available", true, "limit", 500));
        if (date != null) {
            query.put("date_id", date);
        }
        return event.shop(channel).queryParams(query).get(PATH + "/seats", event.slug).then().statusCode(200).extract()
                .jsonPath().getList("data");
    }

    /** Whether the event has a seating plan. */
    boolean hasPlan() {
        return sql.number("SELECT count(*) FROM seating_plans WHERE event_id = ?1", event.id) > 0;
    }

    /** The plan's seats shown free to {@code channel} on {@code date}, each with its guid and its category's item. */
    List<Map<String, Object>> freeInPlan(String channel, Long date) {
        Response plan = event.shop(channel).queryParams(date == null ? Map.of() : Map.of("date_id", date))
                .get(PATH + "/seating_plan", event.slug);
        if (plan.statusCode() == 404) {
            return List.of();
        }
        Map<String, Object> items = plan.then().statusCode(200).extract().jsonPath().getMap("categories");
        List<Map<String, Object>> seats = plan.jsonPath().getList("seats");
        return seats.stream().filter(seat -> Boolean.TRUE.equals(seat.get("free")))
                .map(seat -> Map.<String, Object>of("guid", seat.get("guid"), "item_id",
                        items.get((String) seat.get("category"))))
                .toList();
    }
}
