package io.ticketing.reservations.support;

import static io.ticketing.reservations.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.restassured.common.mapper.TypeRef;

/**
 * The promises of contract sections 1, 2, 8 and 9, computed straight from the rows in SQL written from the contract's
 * text, apart from the service's counters and its counting statement: what each quota holds, and which promises an
 * event breaks. {@link OracleCheck} runs it after every test; races and the property test call it directly.
 */
public final class Oracle {

    /**
     * Section 1, one row per quota of the event: id, size, paid, pending, carts, blocking vouchers. A voucher blocks
     * in a quota while block_quota is on, valid_until has not passed, and its item_id is in the quota or its
     * quota_id is the quota; its live holds are then left out of that quota's carts (the block counts them).
     * Section 10: a position counts in a quota of a date if it is for that date or for none (a pass, and what a pass
     * bundles, count on every date); a quota of no date counts every position of its items; a voucher of one date
     * blocks only in quotas of that date or of none, one of no date blocks on each date what it has not used on that
     * date (each date counted on its own; an offer, whose uses never come back, by what it redeemed), and a date off
     * sale is no exception: a pass counts and is
     * checked there too. Section 9: {@code waiting}, what the list keeps back: each waiting entry's quantity times the
     * places one of its item takes in the quota (itself, and what its bundle brings: section 3), but entries of an item
     * taken off sale or bringing one, which hold nothing back while it is off, of a seated item (which has no list),
     * and of an event with dates (which has none either); and for an offer still running, offered or partly redeemed,
     * what its bundle brings for each use of its voucher not yet held or redeemed (the voucher's block is section 1's,
     * of its own item only).
     * Section 12: {@code kept}, what the allotments in force keep, each its size less its channel's positions in the
     * quota (live holds, pending and paid, with a voucher or without), never below 0; {@code allotments}, each one's
     * id and what its channel used of it, at most its size.
     */
    private static final String QUOTAS = """
            WITH quota AS (SELECT q.id, q.size, q.date_id FROM quotas q JOIN events e ON e.id = q.event_id
                           WHERE e.slug = ?1),
            blocking AS (
              SELECT quota.id AS quota_id, v.id AS voucher_id,
                greatest(v.max_usages - CASE WHEN quota.date_id IS NULL OR v.date_id IS NOT NULL OR NOT v.gives_back
                  THEN v.redeemed
                  ELSE (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                        WHERE p.voucher_id = v.id AND o.status IN ('pending', 'paid')
                          AND (p.date_id IS NULL OR p.date_id = quota.date_id)) END, 0) AS uses_left
              FROM quota JOIN vouchers v ON v.block_quota AND (v.valid_until IS NULL OR v.valid_until >= now())
                AND (v.date_id IS NULL OR quota.date_id IS NULL OR v.date_id = quota.date_id)
                AND (v.quota_id = quota.id
                     OR v.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id))),
            allotted AS (
              SELECT quota.id AS quota_id, a.id, a.size,
                (SELECT count(*) FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                  WHERE k.channel = a.channel AND c.expires >= now()
                    AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id)
                    AND (quota.date_id IS NULL OR c.date_id IS NULL OR c.date_id = quota.date_id))
                + (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                  WHERE o.channel = a.channel AND o.status IN ('pending', 'paid')
                    AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id)
                    AND (quota.date_id IS NULL OR p.date_id IS NULL OR p.date_id = quota.date_id))
                  AS used
              FROM quota JOIN allotments a ON a.quota_id = quota.id AND (a.release_at IS NULL OR a.release_at > now())),
            wants AS (
              SELECT quota.id AS quota_id, i.id AS item_id,
                i.active AND NOT i.requires_seat
                  AND NOT EXISTS (SELECT 1 FROM item_bundles b JOIN items o ON o.id = b.bundled_item_id
                                  WHERE b.item_id = i.id AND NOT o.active)
                  AND NOT EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = i.event_id) AS active,
                (SELECT count(*) FROM quota_items m WHERE m.quota_id = quota.id AND m.item_id = i.id)
                + (SELECT coalesce(sum(b.count), 0) FROM item_bundles b JOIN quota_items m
                     ON m.item_id = b.bundled_item_id AND m.quota_id = quota.id WHERE b.item_id = i.id) AS places,
                (SELECT coalesce(sum(b.count), 0) FROM item_bundles b JOIN quota_items m
                     ON m.item_id = b.bundled_item_id AND m.quota_id = quota.id WHERE b.item_id = i.id) AS brought
              FROM quota JOIN items i ON i.event_id = (SELECT event_id FROM quotas WHERE id = quota.id))
            SELECT quota.id, quota.size,
              (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE o.status = 'paid' AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id)
                  AND (quota.date_id IS NULL OR p.date_id IS NULL OR p.date_id = quota.date_id)),
              (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE o.status = 'pending' AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id)
                  AND (quota.date_id IS NULL OR p.date_id IS NULL OR p.date_id = quota.date_id)),
              (SELECT count(*) FROM cart_positions c
                WHERE c.expires >= now() AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = quota.id)
                  AND (quota.date_id IS NULL OR c.date_id IS NULL OR c.date_id = quota.date_id)
                  AND NOT EXISTS (SELECT 1 FROM blocking b WHERE b.quota_id = quota.id AND b.voucher_id = c.voucher_id)),
              (SELECT coalesce(sum(b.uses_left), 0) FROM blocking b WHERE b.quota_id = quota.id),
              (SELECT coalesce(sum(w.quantity * wants.places), 0) FROM waiting_list_entries w
                 JOIN wants ON wants.item_id = w.item_id AND wants.quota_id = quota.id
                WHERE w.status = 'waiting' AND wants.active)
              + (SELECT coalesce(sum(wants.brought * greatest(v.max_usages - v.redeemed
                     - (SELECT count(*) FROM cart_positions c WHERE c.voucher_id = v.id AND c.expires >= now()), 0)), 0)
                 FROM waiting_list_entries w JOIN vouchers v ON v.id = w.voucher_id
                   JOIN wants ON wants.item_id = w.item_id AND wants.quota_id = quota.id
                 WHERE w.status IN ('offered', 'redeemed') AND wants.active AND v.valid_until >= now()),
              (SELECT coalesce(sum(greatest(a.size - a.used, 0)), 0) FROM allotted a WHERE a.quota_id = quota.id),
              (SELECT coalesce(string_agg(a.id || ':' || least(a.used, a.size), ',' ORDER BY a.id), '')
                 FROM allotted a WHERE a.quota_id = quota.id)
            FROM quota ORDER BY quota.id""";

    /**
     * Section 3, "A ticket is one ticket": a seat is held or sold once per date. A position holds its seat on the seat's
     * date, and a seat of no date on every date the event has (as its ticket is valid on each); a pass holds its
     * guid's seat on every date (section 10).
     */
    private static final String SEATS_HELD_TWICE = """
            WITH event AS (SELECT id FROM events WHERE slug = ?1),
            dates AS (SELECT d.id FROM event_dates d JOIN event ON event.id = d.event_id),
            position AS (
              SELECT c.seat_id, c.pass_seat_guid FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                JOIN event ON event.id = k.event_id WHERE c.expires >= now()
              UNION ALL
              SELECT p.seat_id, p.pass_seat_guid FROM order_positions p JOIN orders o ON o.id = p.order_id
                JOIN event ON event.id = o.event_id WHERE o.status IN ('paid', 'pending')),
            taken AS (
              SELECT coalesce(s.date_id, d.id) AS date_id, s.guid FROM position JOIN seats s ON s.id = position.seat_id
                LEFT JOIN dates d ON s.date_id IS NULL
              UNION ALL
              SELECT d.id, position.pass_seat_guid FROM position JOIN dates d ON position.pass_seat_guid IS NOT NULL)
            SELECT guid || ' on ' || coalesce('date ' || date_id, 'the event') FROM taken
            GROUP BY date_id, guid HAVING count(*) > 1""";

    /**
     * Section 10, "Becoming a series": in an event with dates, every live hold and pending or paid position names its
     * date, but a pass and what a pass's bundle brought.
     */
    private static final String UNDATED_IN_A_SERIES = """
            WITH event AS (SELECT e.id FROM events e WHERE e.slug = ?1
                             AND EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id)),
            position AS (
              SELECT 'cart position ' || c.id AS what, c.item_id, c.date_id, b.item_id AS bundle
              FROM cart_positions c JOIN carts k ON k.id = c.cart_id JOIN event ON event.id = k.event_id
                LEFT JOIN cart_positions b ON b.id = c.bundled_in
              WHERE c.expires >= now()
              UNION ALL
              SELECT 'order position ' || p.id, p.item_id, p.date_id, b.item_id
              FROM order_positions p JOIN orders o ON o.id = p.order_id JOIN event ON event.id = o.event_id
                LEFT JOIN order_positions b ON b.id = p.bundled_in
              WHERE o.status IN ('pending', 'paid'))
            SELECT what FROM position JOIN items i ON i.id = coalesce(position.bundle, position.item_id)
            WHERE position.date_id IS NULL AND NOT i.every_date""";

    /**
     * Section 13: a seat held or sold stays, and stays its buyer's item (its price level), whatever plan replaced the
     * one it was sold from; a pass's guid stays a seat of the event.
     */
    private static final String SEATS_CHANGED_UNDER_THEIR_BUYERS = """
            WITH position AS (
              SELECT c.id, c.item_id, c.seat_id, c.pass_seat_guid, k.event_id FROM cart_positions c
                JOIN carts k ON k.id = c.cart_id JOIN events e ON e.id = k.event_id
                WHERE e.slug = ?1 AND c.expires >= now()
              UNION ALL
              SELECT p.id, p.item_id, p.seat_id, p.pass_seat_guid, o.event_id FROM order_positions p
                JOIN orders o ON o.id = p.order_id JOIN events e ON e.id = o.event_id
                WHERE e.slug = ?1 AND o.status IN ('paid', 'pending'))
            SELECT 'position ' || position.id FROM position LEFT JOIN seats s ON s.id = position.seat_id
            WHERE position.seat_id IS NOT NULL AND (s.id IS NULL OR s.item_id <> position.item_id)
               OR position.pass_seat_guid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seats t
                    WHERE t.event_id = position.event_id AND t.guid = position.pass_seat_guid)""";

    private static final String VOUCHERS_OVERUSED = """
            SELECT v.code FROM vouchers v JOIN events e ON e.id = v.event_id
            WHERE e.slug = ?1 AND v.max_usages < v.redeemed
              + (SELECT count(*) FROM cart_positions c WHERE c.voucher_id = v.id AND c.expires >= now())""";

    /**
     * A voucher is redeemed once for each pending or paid position using it (section 1). An offer of the waiting list
     * gives nothing back (section 9): its uses are those ever made, at least its positions of any status.
     */
    private static final String VOUCHERS_MISCOUNTED = """
            SELECT v.code FROM vouchers v JOIN events e ON e.id = v.event_id
            WHERE e.slug = ?1 AND CASE WHEN v.gives_back
              THEN v.redeemed <> (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                                  WHERE p.voucher_id = v.id AND o.status IN ('paid', 'pending'))
              ELSE v.redeemed < (SELECT count(*) FROM order_positions p WHERE p.voucher_id = v.id) END""";

    private static final String BUYERS_PAST_THEIR_LIMITS = """
            WITH held AS (
              SELECT k.buyer, c.item_id FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                JOIN events e ON e.id = k.event_id
                WHERE e.slug = ?1 AND k.buyer IS NOT NULL AND c.expires >= now()
              UNION ALL
              SELECT o.buyer, p.item_id FROM order_positions p JOIN orders o ON o.id = p.order_id
                JOIN events e ON e.id = o.event_id
                WHERE e.slug = ?1 AND o.buyer IS NOT NULL AND o.status IN ('paid', 'pending'))
            SELECT h.buyer || ' of item ' || h.item_id FROM held h JOIN items i ON i.id = h.item_id
              GROUP BY h.buyer, h.item_id, i.max_per_buyer HAVING count(*) > i.max_per_buyer
            UNION ALL
            SELECT h.buyer || ' in the event' FROM held h JOIN events e ON e.slug = ?1
              GROUP BY h.buyer, e.max_per_buyer HAVING count(*) > e.max_per_buyer""";

    /** Section 10: what a bundle brought is in the cart or order of its bundle's position, which leaves with it. */
    private static final String BROUGHT_WITHOUT_THEIR_BUNDLE = """
            SELECT 'cart position ' || c.id FROM cart_positions c JOIN carts k ON k.id = c.cart_id
              JOIN events e ON e.id = k.event_id
            WHERE e.slug = ?1 AND c.bundled_in IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM cart_positions b WHERE b.id = c.bundled_in AND b.cart_id = c.cart_id)
            UNION ALL
            SELECT 'order position ' || p.id FROM order_positions p JOIN orders o ON o.id = p.order_id
              JOIN events e ON e.id = o.event_id
            WHERE e.slug = ?1 AND p.bundled_in IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM order_positions b WHERE b.id = p.bundled_in AND b.order_id = p.order_id)""";

    /**
     * Section 10: a bundle's live hold or sold position brings each of its bundled items as often as the bundle says,
     * whichever flow wrote it (an add, a checkout, an order change into the bundle).
     */
    private static final String BUNDLES_INCOMPLETE = """
            SELECT 'cart position ' || c.id FROM cart_positions c JOIN carts k ON k.id = c.cart_id
              JOIN events e ON e.id = k.event_id JOIN item_bundles b ON b.item_id = c.item_id
            WHERE e.slug = ?1 AND c.expires >= now() AND b.count <> (SELECT count(*) FROM cart_positions x
              WHERE x.bundled_in = c.id AND x.item_id = b.bundled_item_id)
            UNION ALL
            SELECT 'order position ' || p.id FROM order_positions p JOIN orders o ON o.id = p.order_id
              JOIN events e ON e.id = o.event_id JOIN item_bundles b ON b.item_id = p.item_id
            WHERE e.slug = ?1 AND o.status IN ('pending', 'paid') AND b.count <> (SELECT count(*)
              FROM order_positions x WHERE x.bundled_in = p.id AND x.item_id = b.bundled_item_id)""";

    private Oracle() {
    }

    /**
     * What a quota holds by section 1, and what waits for it by section 9; {@code size} is null when unlimited.
     */
    public record QuotaUsage(long id, Integer size, long paid, long pending, long carts, long blockingVouchers,
            long waiting, long kept, String allotments) {

        public long used() {
            return paid + pending + carts + blockingVouchers;
        }

        /** What it holds, sells and blocks, and what its allotments keep for their channels (section 12). */
        public long committed() {
            return used() + kept;
        }

        /**
         * Used past its size, or past what is left after what the allotments keep: section 1 makes no exception, for
         * a date off sale neither (section 10); section 12 lets no channel sell what another's allotment keeps, and
         * everyone but a channel sells only what no allotment keeps.
         */
        public boolean pastItsSize() {
            return size != null && committed() > size;
        }

        /** Section 1's available_number: null when unlimited, never below 0. */
        public Integer availableNumber() {
            return size == null ? null : (int) Math.max(0, size - used());
        }
    }

    /** Every quota of the event, by id, as section 1 counts it now. */
    public static Map<Long, QuotaUsage> quotas(Sql sql, String event) {
        Map<Long, QuotaUsage> quotas = new LinkedHashMap<>();
        for (Object row : sql.rows(QUOTAS, event)) {
            Object[] columns = (Object[]) row;
            QuotaUsage usage = new QuotaUsage(number(columns[0]),
                    columns[1] == null ? null : (int) number(columns[1]), number(columns[2]), number(columns[3]),
                    number(columns[4]), number(columns[5]), number(columns[6]), number(columns[7]),
                    (String) columns[8]);
            quotas.put(usage.id(), usage);
        }
        return quotas;
    }

    /**
     * The promises the event breaks right now: quotas used past their size (but those in {@code excused}, which an
     * admin shrank below what they hold), seats held twice or changed under their buyers,
     * vouchers overused or miscounted, buyers past their limits, what a bundle brought left without it or missing,
     * and check-in's promises ({@link CheckinOracle}).
     */
    public static List<String> brokenPromises(Sql sql, String event, Set<Long> excused) {
        List<String> broken = new ArrayList<>();
        quotas(sql, event).values().stream()
                .filter(quota -> quota.pastItsSize() && !excused.contains(quota.id()))
                .forEach(quota -> broken.add("quota " + quota.id() + " holds " + quota.used() + " and keeps "
                        + quota.kept() + " of " + quota.size()));
        sql.rows(SEATS_HELD_TWICE, event).forEach(seat -> broken.add("seat " + seat + " held twice"));
        sql.rows(UNDATED_IN_A_SERIES, event)
                .forEach(position -> broken.add(position + " names no date in an event with dates"));
        sql.rows(SEATS_CHANGED_UNDER_THEIR_BUYERS, event)
                .forEach(position -> broken.add(position + " lost its seat or the seat's item"));
        sql.rows(VOUCHERS_OVERUSED, event).forEach(code -> broken.add("voucher " + code + " used too often"));
        sql.rows(VOUCHERS_MISCOUNTED, event).forEach(code -> broken.add("voucher " + code + " redeemed miscounted"));
        sql.rows(BUYERS_PAST_THEIR_LIMITS, event).forEach(buyer -> broken.add("buyer " + buyer + " past the limit"));
        sql.rows(BROUGHT_WITHOUT_THEIR_BUNDLE, event)
                .forEach(position -> broken.add(position + " outlived the bundle that brought it"));
        sql.rows(BUNDLES_INCOMPLETE, event)
                .forEach(position -> broken.add(position + " lacks what its bundle brings"));
        broken.addAll(CheckinOracle.brokenPromises(sql, event));
        return broken;
    }

    public static void assertNeverOversold(Sql sql, String event) {
        assertThat(brokenPromises(sql, event, Set.of())).as("promises broken in event %s", event).isEmpty();
        assertServiceAgrees(sql, event);
    }

    /** The lock-off twin's check: the race sold what it must not, and the service still counts what is there. */
    public static void assertOversold(Sql sql, String event) {
        assertThat(brokenPromises(sql, event, Set.of())).as("promises broken without the locks").isNotEmpty();
        assertServiceAgrees(sql, event);
    }

    /**
     * The service's availability of every quota of the event equals section 1's, and what it says waits, section 9's.
     * Holds and vouchers may pass their
     * deadlines while the two are read, so the oracle is read before and after the service, and they are compared
     * only when the oracle did not move in between.
     */
    public static void assertServiceAgrees(Sql sql, String event) {
        for (int attempt = 1;; attempt++) {
            Map<Long, QuotaUsage> before = quotas(sql, event);
            Map<Long, QuotaUsage> served = served(event, before);
            if (before.equals(quotas(sql, event)) || attempt == 5) {
                assertThat(served).as("the service's availability of the quotas of event %s", event).isEqualTo(before);
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<Long, QuotaUsage> served(String event, Map<Long, QuotaUsage> expected) {
        Map<Long, QuotaUsage> served = new LinkedHashMap<>();
        for (long quota : expected.keySet()) {
            // Read as a map, not a JsonPath: each path of a JsonPath is a Groovy evaluation, and this runs after
            // every test and every step of the property test.
            Map<String, Object> counted = admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event,
                    quota).then().statusCode(200).extract().as(new TypeRef<>() {
                    });
            List<Map<String, Object>> allotments = (List<Map<String, Object>>) counted.get("allotments");
            QuotaUsage usage = new QuotaUsage(quota, (Integer) counted.get("size"), number(counted.get("paid_orders")),
                    number(counted.get("pending_orders")), number(counted.get("cart_positions")),
                    number(counted.get("blocking_vouchers")), number(counted.get("waiting_list")),
                    allotments.stream().mapToLong(allotment -> number(allotment.get("unused"))).sum(),
                    String.join(",", allotments.stream()
                            .map(allotment -> allotment.get("id") + ":" + allotment.get("used")).toList()));
            assertThat(counted.get("available_number")).as("available_number of quota %d", quota)
                    .isEqualTo(usage.availableNumber());
            served.put(quota, usage);
        }
        return served;
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
