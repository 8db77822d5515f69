package io.ticketing.reservations.order;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.cart.CartCleanup;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.tasks.Sweep;

/** Order expiry and cart clean-up run on every replica: two sweeps at once, each row changed exactly once. */
@QuarkusTest
class SweepsTest {

    @Inject
    OrderExpiry expiry;

    @Inject
    CartCleanup cleanup;

    @Inject
    Sql sql;

    /** Runs the sweep as two replicas would, released together, and returns what each changed. */
    private static List<Integer> twoReplicas(Sweep sweep) throws Exception {
        ExecutorService replicas = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Integer>> rounds = new ArrayList<>();
            for (int replica = 0; replica < 2; replica++) {
                rounds.add(replicas.submit(() -> {
                    go.await();
                    return sweep.sweep();
                }));
            }
            go.countDown();
            return List.of(rounds.get(0).get(60, TimeUnit.SECONDS), rounds.get(1).get(60, TimeUnit.SECONDS));
        } finally {
            replicas.shutdownNow();
        }
    }

    @Test
    void everyOverdueOrderExpiresExactlyOnceAndGivesItsCapacityAndVoucherBack() throws Exception {
        String event = newEvent("sweep-expiry");
        long item = newItem(event, "Ticket", "10");
        long quota = newQuota(event, 100, List.of(item));
        newVoucher(event, Map.of("code", "SWEEP", "max_usages", 50));
        List<String> overdue = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            String code = checkout(event, cartWith(event, Map.of("item_id", item, "voucher_code", "SWEEP")))
                    .then().statusCode(201).extract().path("code");
            if (i < 40) {
                sql.passDeadline(code);
                overdue.add(code);
            }
        }
        long expiredBefore = sql.number("SELECT count(*) FROM orders WHERE status = 'expired'");

        List<Integer> changed = twoReplicas(expiry);

        assertThat(sql.number("SELECT count(*) FROM orders WHERE status = 'expired'") - expiredBefore).isEqualTo(40);
        assertThat(changed.get(0) + changed.get(1)).isEqualTo(40);
        for (String code : overdue) {
            assertThat((String) storefront().get("/api/v1/events/{event}/orders/{code}", event, code).then()
                    .extract().path("status")).isEqualTo("expired");
        }
        // Given back once per expired position, never twice: the five orders still pending keep theirs.
        assertThat((Integer) admin().get("/api/v1/events/{event}/vouchers/SWEEP", event).then().extract()
                .path("redeemed")).isEqualTo(5);
        assertThat((Integer) admin().get("/api/v1/events/{event}/quotas/{quota}/availability", event, quota)
                .then().extract().path("available_number")).isEqualTo(95);
    }

    @Test
    void oldCartsAreDeletedOnceWhileRecentOnesStay() throws Exception {
        String event = newEvent("sweep-carts");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        List<String> old = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String cart = cartWith(event, Map.of("item_id", item));
            sql.update("UPDATE carts SET expires = now() - interval '2 hours' WHERE id = ?1", cart);
            sql.update("UPDATE cart_positions SET expires = now() - interval '2 hours' WHERE cart_id = ?1", cart);
            old.add(cart);
        }
        String recent = cartWith(event, Map.of("item_id", item));

        List<Integer> changed = twoReplicas(cleanup);

        assertThat(changed.get(0) + changed.get(1)).isEqualTo(30);
        assertThat(sql.number("SELECT count(*) FROM carts WHERE id = ANY(?1)", (Object) old.toArray(String[]::new)))
                .isZero();
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, recent).then().statusCode(200);
    }
}
