package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.restassured.path.json.JsonPath;
import io.ticketing.reservations.support.Sql;

/**
 * The promises of contract sections 1, 2 and 8, checked in SQL written independently of the service's own
 * counting code, over everything one event holds right now.
 */
public final class Invariants {

    private static final String QUOTAS_PAST_THEIR_SIZE = """
            SELECT q.id FROM quotas q JOIN events e ON e.id = q.event_id
            WHERE e.slug = ?1 AND q.size IS NOT NULL AND q.size < (
              (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                WHERE o.status IN ('paid', 'pending')
                  AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))
            + (SELECT count(*) FROM cart_positions c
                WHERE c.expires >= now() AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id)
                  AND NOT EXISTS (SELECT 1 FROM vouchers v WHERE v.id = c.voucher_id AND v.block_quota))
            + (SELECT coalesce(sum(greatest(v.max_usages - v.redeemed, 0)), 0) FROM vouchers v
                WHERE v.block_quota AND (v.valid_until IS NULL OR v.valid_until >= now())
                  AND (v.quota_id = q.id OR v.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))))
            """;

    private static final String SEATS_HELD_TWICE = """
            SELECT seat_id FROM (
              SELECT c.seat_id FROM cart_positions c JOIN carts k ON k.id = c.cart_id JOIN events e ON e.id = k.event_id
                WHERE e.slug = ?1 AND c.seat_id IS NOT NULL AND c.expires >= now()
              UNION ALL
              SELECT p.seat_id FROM order_positions p JOIN orders o ON o.id = p.order_id JOIN events e ON e.id = o.event_id
                WHERE e.slug = ?1 AND p.seat_id IS NOT NULL AND o.status IN ('paid', 'pending')) held
            GROUP BY seat_id HAVING count(*) > 1""";

    private static final String VOUCHERS_OVERUSED = """
            SELECT v.code FROM vouchers v JOIN events e ON e.id = v.event_id
            WHERE e.slug = ?1 AND v.max_usages < v.redeemed
              + (SELECT count(*) FROM cart_positions c WHERE c.voucher_id = v.id AND c.expires >= now())""";

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

    private Invariants() {
    }

    static void assertNeverOversold(Sql sql, String event) {
        assertThat(oversold(sql, event)).as("promises broken").isEmpty();
        assertThat(sql.rows(
                """
                        SELECT v.code FROM vouchers v JOIN events e ON e.id = v.event_id
                        WHERE e.slug = ?1 AND v.redeemed <> (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                          WHERE p.voucher_id = v.id AND o.status IN ('paid', 'pending'))""",
                event))
                .as("vouchers whose redeemed count disagrees with their orders").isEmpty();
        assertCountersAgree(sql, event);
    }

    /** The twin's check, with the locks off: the race sold what it must not, and the counters still agree. */
    static void assertOversold(Sql sql, String event) {
        assertThat(oversold(sql, event)).as("promises broken without the locks").isNotEmpty();
        assertCountersAgree(sql, event);
    }

    /**
     * The promises the event breaks right now: quotas sold past their size, seats held twice, vouchers overused,
     * buyers past their limits.
     */
    static List<String> oversold(Sql sql, String event) {
        List<String> broken = new ArrayList<>();
        sql.rows(QUOTAS_PAST_THEIR_SIZE, event).forEach(quota -> broken.add("quota " + quota + " sold past its size"));
        sql.rows(SEATS_HELD_TWICE, event).forEach(seat -> broken.add("seat " + seat + " held twice"));
        sql.rows(VOUCHERS_OVERUSED, event).forEach(code -> broken.add("voucher " + code + " used too often"));
        sql.rows(BUYERS_PAST_THEIR_LIMITS, event).forEach(buyer -> broken.add("buyer " + buyer + " past the limit"));
        return broken;
    }

    /** Availability comes from counters kept by triggers (migration V5); they must agree with every row. */
    public static void assertCountersAgree(Sql sql, String event) {
        for (Object id : sql.rows("SELECT q.id FROM quotas q JOIN events e ON e.id = q.event_id WHERE e.slug = ?1",
                event)) {
            long quota = ((Number) id).longValue();
            JsonPath counted = admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                    .then().statusCode(200).extract().jsonPath();
            for (String status : new String[]{"paid", "pending"}) {
                assertThat(counted.getLong(status + "_orders")).as("%s positions in quota %d", status, quota)
                        .isEqualTo(sql.number(
                                """
                                        SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                                        WHERE o.status = ?2 AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = ?1)""",
                                quota, status));
            }
            assertThat(counted.getLong("cart_positions")).as("cart positions in quota %d", quota).isEqualTo(sql.number(
                    """
                            SELECT count(*) FROM cart_positions c
                            WHERE c.expires >= now() AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = ?1)
                              AND NOT EXISTS (SELECT 1 FROM vouchers v WHERE v.id = c.voucher_id AND v.block_quota)""",
                    quota));
        }
    }
}
