package io.ticketing.reservations.inventory;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Oracle;
import io.ticketing.reservations.support.OracleCheck;
import io.ticketing.reservations.support.Sql;

/**
 * The counting rules of contract section 1, with holds written straight into the database so each rule is
 * seen on its own (the cart and order flows are tested against the same numbers through the API).
 */
@QuarkusTest
class QuotaCountingTest {

    @Inject
    Holds holds;

    @Inject
    Sql sql;

    @Inject
    DataSource dataSource;

    @Test
    @OracleCheck.Skipped("vouchers redeemed with no orders: rows no API call writes")
    void availabilityCountsPaidPendingUnexpiredCartsAndBlockingVouchersOnly() {
        String event = newEvent("counting");
        long ticket = newItem(event, "Ticket", "10");
        long vip = newItem(event, "VIP", "50");
        long other = newItem(event, "Elsewhere", "5");
        long quota = newQuota(event, 20, List.of(ticket, vip));
        newQuota(event, 100, List.of(other));

        holds.order(event, "paid", ticket, vip);
        holds.order(event, "pending", ticket);
        holds.order(event, "expired", ticket);
        holds.order(event, "canceled", ticket);
        holds.order(event, "paid", other);
        holds.cartPosition(event, ticket, "now() + interval '10 minutes'", null);
        holds.cartPosition(event, vip, "now() + interval '10 minutes'", null);
        holds.cartPosition(event, ticket, "now() - interval '1 second'", null);
        holds.cartPosition(event, other, "now() + interval '10 minutes'", null);
        long blocking = holds.voucher(event, "BLOCK", 3, 1, true, "item_id", ticket, null);
        holds.cartPosition(event, ticket, "now() + interval '10 minutes'", blocking);
        holds.voucher(event, "QUOTA-BLOCK", 2, 0, true, "quota_id", quota, null);
        holds.voucher(event, "OLD-BLOCK", 5, 0, true, "item_id", ticket, "now() - interval '1 day'");
        holds.voucher(event, "USED-UP", 2, 4, true, "item_id", vip, null);
        holds.voucher(event, "PLAIN", 9, 0, false, "item_id", ticket, null);

        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200)
                .body("size", equalTo(20))
                .body("paid_orders", equalTo(2))
                .body("pending_orders", equalTo(1))
                .body("cart_positions", equalTo(2))
                .body("blocking_vouchers", equalTo(4))
                .body("available_number", equalTo(11))
                .body("available", equalTo(true));
    }

    @Test
    @OracleCheck.Skipped("a quota sold past its size by hand")
    void availabilityNeverGoesBelowZero() {
        String event = newEvent("overfull");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 1, List.of(ticket));
        holds.order(event, "paid", ticket, ticket);
        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200).body("available_number", equalTo(0)).body("available", equalTo(false));
    }

    /**
     * Holds are counted in one-second buckets near now and one-minute buckets further out (migration V5);
     * deadlines on both sides of the next minute, and just past, must count exactly as the rule says. The
     * nearest live deadline is 5 s away, so none runs out between the two counts.
     */
    @Test
    void holdsCountUntilTheirDeadlineOnEitherSideOfTheMinuteHorizon() {
        String event = newEvent("horizon");
        long ticket = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 100, List.of(ticket));
        for (String offset : List.of("-61", "-1", "5", "30", "59", "60", "61", "119", "3600")) {
            holds.cartPosition(event, ticket, "date_trunc('second', now()) + interval '" + offset + " seconds'", null);
        }
        holds.cartPosition(event, ticket, "now() + interval '90.5 seconds'", null);

        admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().statusCode(200).body("cart_positions", equalTo(8));
        Oracle.assertServiceAgrees(sql, event);
    }

    /** Every flow that changes usage, through the API, leaves the counters equal to counting every row. */
    @Test
    void countersFollowEveryFlow() {
        String event = newEvent("flows");
        long ticket = newItem(event, "Ticket", "10");
        long vip = newItem(event, "VIP", "50");
        newQuota(event, 50, List.of(ticket, vip));
        newQuota(event, 10, List.of(vip));
        newVoucher(event, Map.of("code", "HOLD", "max_usages", 3, "item_id", ticket, "block_quota", true));

        String kept = newCart(event);
        addToCart(event, kept, Map.of("item_id", ticket, "quantity", 3)).then().statusCode(201);
        addToCart(event, kept, Map.of("item_id", vip, "voucher_code", "hold")).then().statusCode(409);
        addToCart(event, kept, Map.of("item_id", ticket, "voucher_code", "hold")).then().statusCode(201);
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, kept).then().statusCode(200);
        int removed = storefront().get("/api/v1/events/{event}/carts/{cart}", event, kept).then().extract()
                .path("positions[0].id");
        storefront().delete("/api/v1/events/{event}/carts/{cart}/positions/{position}", event, kept, removed)
                .then().statusCode(204);
        String deleted = cartWith(event, Map.of("item_id", vip));
        storefront().delete("/api/v1/events/{event}/carts/{cart}", event, deleted).then().statusCode(204);
        String stale = cartWith(event, Map.of("item_id", vip));
        sql.expireCart(stale);
        storefront().post("/api/v1/events/{event}/carts/{cart}/extend", event, stale).then().statusCode(200);

        String paid = checkout(event, cartWith(event, Map.of("item_id", vip))).then().statusCode(201).extract()
                .path("code");
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, paid).then().statusCode(200);
        String canceled = checkout(event, kept).then().statusCode(201).extract().path("code");
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, canceled).then().statusCode(200);
        String expired = checkout(event, cartWith(event, Map.of("item_id", ticket))).then().statusCode(201).extract()
                .path("code");
        sql.update("UPDATE orders SET status = 'expired' WHERE code = ?1", expired);
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, expired).then().statusCode(200);
        checkout(event, stale).then().statusCode(201);

        Oracle.assertServiceAgrees(sql, event);
    }

    /**
     * Extending a cart moves its holds from their old counter buckets to new ones. Until migration V8 it took the
     * old buckets and then the new ones, and deadlocked with a hold added for the same second: each held one
     * counter row and waited for the other. Without V8 this run of real concurrent transactions on one item (half
     * extending, half adding, 100 rounds each) hit two deadlocks; with it, none, and the counters stay exact.
     */
    @Test
    void extendingCartsWhileHoldsAreAddedNeverDeadlocks() throws Exception {
        String event = newEvent("extend-race");
        long ticket = newItem(event, "Ticket", "10");
        newQuota(event, 100_000, List.of(ticket));
        int clients = 8;
        List<String> carts = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            carts.add(holds.cartPosition(event, ticket, "now() + interval '20 minutes'", null));
        }
        CyclicBarrier start = new CyclicBarrier(clients);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Void>> runs = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String cart = carts.get(i);
            String statement = i % 2 == 0
                    ? "UPDATE cart_positions SET expires = date_trunc('second', clock_timestamp()) + interval '20 minutes'"
                            + " WHERE cart_id = ?"
                    : "INSERT INTO cart_positions (cart_id, item_id, price, expires) VALUES (?, " + ticket
                            + ", 10, date_trunc('second', clock_timestamp()) + interval '20 minutes')";
            runs.add(pool.submit(() -> {
                try (Connection connection = transaction()) {
                    start.await();
                    for (int round = 0; round < 100; round++) {
                        execute(connection, statement, cart);
                        connection.commit();
                    }
                }
                return null;
            }));
        }
        try {
            for (Future<Void> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Oracle.assertServiceAgrees(sql, event);
    }

    private Connection transaction() throws SQLException {
        Connection connection = dataSource.getConnection();
        connection.setAutoCommit(false);
        return connection;
    }

    private static void execute(Connection connection, String statement, Object... parameters) throws SQLException {
        try (PreparedStatement prepared = connection.prepareStatement(statement)) {
            for (int i = 0; i < parameters.length; i++) {
                prepared.setObject(i + 1, parameters[i]);
            }
            prepared.executeUpdate();
        }
    }

    @ApplicationScoped
    static class Holds {

        @Inject
        EntityManager entityManager;

        @Transactional
        void order(String event, String status, long... items) {
            long order = ((Number) entityManager.createNativeQuery("""
                    INSERT INTO orders (event_id, code, email, status, expires)
                    SELECT id, md5(random()::text), 'buyer@example.com', ?2, now() + interval '1 day'
                    FROM events WHERE slug = ?1 RETURNING id""")
                    .setParameter(1, event).setParameter(2, status).getSingleResult()).longValue();
            for (long item : items) {
                entityManager.createNativeQuery(
                        "INSERT INTO order_positions (order_id, item_id, price) VALUES (?1, ?2, 10)")
                        .setParameter(1, order).setParameter(2, item).executeUpdate();
            }
        }

        /** A new cart with one position; returns the cart's id. */
        @Transactional
        String cartPosition(String event, long item, String expiresSql, Long voucher) {
            String cart = "cart-" + System.nanoTime() + "-" + Math.random();
            entityManager
                    .createNativeQuery("INSERT INTO carts (id, event_id) SELECT ?1, id FROM events WHERE slug = ?2")
                    .setParameter(1, cart).setParameter(2, event).executeUpdate();
            entityManager.createNativeQuery("INSERT INTO cart_positions (cart_id, item_id, voucher_id, price, expires)"
                    + " VALUES (?1, ?2, ?3, 10, " + expiresSql + ")")
                    .setParameter(1, cart).setParameter(2, item).setParameter(3, voucher).executeUpdate();
            return cart;
        }

        @Transactional
        long voucher(String event, String code, int maxUsages, int redeemed, boolean blockQuota, String target,
                long targetId, String validUntilSql) {
            return ((Number) entityManager.createNativeQuery("INSERT INTO vouchers (event_id, code, max_usages,"
                    + " redeemed, block_quota, valid_until, " + target + ") SELECT id, ?2, ?3, ?4, ?5, "
                    + (validUntilSql == null ? "NULL" : validUntilSql)
                    + ", ?6 FROM events WHERE slug = ?1 RETURNING id")
                    .setParameter(1, event).setParameter(2, code).setParameter(3, maxUsages)
                    .setParameter(4, redeemed).setParameter(5, blockQuota).setParameter(6, targetId)
                    .getSingleResult()).longValue();
        }
    }
}
