package io.ticketing.reservations.faults;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What must hold after any fault, checked in SQL written apart from the service's: nothing sold twice or past its
 * limit, nothing done twice, nothing answered that was not kept, and the trigger-kept counters equal to the rows.
 * Each query counts violations in one event.
 */
final class Invariants {

    private static final Map<String, String> CHECKS = new LinkedHashMap<>();

    static {
        CHECKS.put("quota oversold", """
                SELECT count(*) FROM quotas q WHERE q.event_id = :event AND q.size IS NOT NULL AND q.size <
                  (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE o.status IN ('pending', 'paid')
                      AND p.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))
                + (SELECT count(*) FROM cart_positions c WHERE c.expires >= now()
                      AND c.item_id IN (SELECT item_id FROM quota_items WHERE quota_id = q.id))""");
        CHECKS.put("seat twice", """
                SELECT count(*) FROM (SELECT seat_id FROM (
                  SELECT c.seat_id FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                    WHERE k.event_id = :event AND c.seat_id IS NOT NULL AND c.expires >= now()
                  UNION ALL SELECT p.seat_id FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE o.event_id = :event AND p.seat_id IS NOT NULL AND o.status IN ('pending', 'paid')) held
                  GROUP BY seat_id HAVING count(*) > 1) twice""");
        CHECKS.put("voucher over its uses", """
                SELECT count(*) FROM vouchers v WHERE v.event_id = :event AND v.max_usages <
                  (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
                    WHERE p.voucher_id = v.id AND o.status IN ('pending', 'paid'))
                + (SELECT count(*) FROM cart_positions c WHERE c.voucher_id = v.id AND c.expires >= now())""");
        CHECKS.put("a request done twice", """
                SELECT (SELECT count(*) FROM (SELECT cart_id FROM cart_positions c JOIN carts k ON k.id = c.cart_id
                          WHERE k.event_id = :event GROUP BY cart_id HAVING count(*) > 1) carts)
                     + (SELECT count(*) FROM (SELECT order_id FROM order_positions p JOIN orders o ON o.id = p.order_id
                          WHERE o.event_id = :event GROUP BY order_id HAVING count(*) > 1) orders)""");
        CHECKS.put("counter differs from rows",
                """
                        WITH counted AS (SELECT p.item_id, coalesce(p.date_id, 0), o.status, count(*) AS positions
                                         FROM order_positions p JOIN orders o ON o.id = p.order_id
                                         WHERE o.event_id = :event AND o.status IN ('pending', 'paid') GROUP BY 1, 2, 3),
                             kept AS (SELECT s.item_id, s.date_id, s.status, s.positions FROM item_sales s JOIN items i ON i.id = s.item_id
                                      WHERE i.event_id = :event AND s.positions <> 0)
                        SELECT count(*) FROM ((SELECT * FROM counted EXCEPT SELECT * FROM kept)
                                              UNION ALL (SELECT * FROM kept EXCEPT SELECT * FROM counted)) differing""");
    }

    private Invariants() {
    }

    /** The violated invariants with their counts, "all hold" if none; answered orders missing count as lost. */
    static String check(Database database, long event, Collection<String> answeredOrderCodes) throws Exception {
        return check(database.url(), database.username(), database.password(), event, answeredOrderCodes);
    }

    /** The same, in the database at {@code url}. */
    static String check(String url, String username, String password, long event,
            Collection<String> answeredOrderCodes) throws Exception {
        List<String> broken = new ArrayList<>();
        try (Connection sql = DriverManager.getConnection(url, username, password)) {
            for (Map.Entry<String, String> check : CHECKS.entrySet()) {
                try (PreparedStatement statement = sql.prepareStatement(check.getValue().replace(":event", "?"))) {
                    for (int i = 1; i <= statement.getParameterMetaData().getParameterCount(); i++) {
                        statement.setLong(i, event);
                    }
                    long violations = single(statement);
                    if (violations > 0) {
                        broken.add(check.getKey() + " x" + violations);
                    }
                }
            }
            try (PreparedStatement kept = sql.prepareStatement("SELECT count(*) FROM orders WHERE code = ANY(?)")) {
                Array codes = sql.createArrayOf("text", answeredOrderCodes.toArray());
                kept.setArray(1, codes);
                long lost = answeredOrderCodes.size() - single(kept);
                if (lost > 0) {
                    broken.add("answered order lost x" + lost);
                }
            }
        }
        return broken.isEmpty() ? "all hold" : String.join("; ", broken);
    }

    private static long single(PreparedStatement statement) throws Exception {
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
