package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCarts;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.newSeats;
import static io.ticketing.reservations.support.Api.newVoucher;
import static io.ticketing.reservations.support.Crowd.count;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.ticketing.reservations.support.Crowd;
import io.ticketing.reservations.support.Crowd.Outcome;
import io.ticketing.reservations.support.Sql;

/**
 * Admin edits that make capacity scarcer, racing buyers: real HTTP clients released together. The first two fail
 * with the advisory locks switched off (checked by hand: see docs/design.md).
 */
@QuarkusTest
class AdminContentionTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

    @Test
    void aSeatBlockedWhileThirtyBuyersRaceForItIsEitherBlockedOrHeldNeverBoth() {
        for (int round = 0; round < 5; round++) {
            String event = newEvent("race-block-seat");
            long item = newSeatedItem(event, "Seat", "50");
            newQuota(event, 100, List.of(item));
            newSeats(event, item, "S", 1);
            String etag = admin().get(EVENT + "/seats/{guid}", event, "S-1").then().extract().header("ETag");
            List<String> carts = newCarts(event, 30);
            List<Outcome> outcomes = Crowd.run(31, i -> i == 30
                    ? admin().header("If-Match", etag).body(Map.of("blocked", true))
                            .patch(EVENT + "/seats/{guid}", event, "S-1")
                    : addToCart(event, carts.get(i), Map.of("item_id", item, "seat_guid", "S-1")));
            boolean blocked = outcomes.get(30).status() == 200;
            assertThat(count(outcomes, 201) + (blocked ? 1 : 0)).as("holds plus the block").isEqualTo(1);
            assertThat(sql.number("""
                    SELECT count(*) FROM seats s JOIN events e ON e.id = s.event_id
                    WHERE e.slug = ?1 AND s.blocked AND EXISTS (SELECT 1 FROM cart_positions c
                      WHERE c.seat_id = s.id AND c.expires >= now())""", event)).as("blocked and held").isZero();
            Invariants.assertNeverOversold(sql, event);
        }
    }

    @Test
    void raisingABlockingVouchersUsesWhileBuyersRaceNeverOversells() {
        for (int round = 0; round < 5; round++) {
            String event = newEvent("race-raise-voucher");
            long item = newItem(event, "Ticket", "10");
            newQuota(event, 10, List.of(item));
            newVoucher(event, Map.of("code", "CREW", "max_usages", 2, "item_id", item, "block_quota", true));
            String etag = admin().get(EVENT + "/vouchers/{code}", event, "CREW").then().extract().header("ETag");
            List<String> carts = newCarts(event, 8);
            List<Outcome> outcomes = Crowd.run(9, i -> i == 8
                    ? admin().header("If-Match", etag).body(Map.of("max_usages", 6))
                            .patch(EVENT + "/vouchers/{code}", event, "CREW")
                    : addToCart(event, carts.get(i), Map.of("item_id", item)));
            long holds = count(outcomes, 201);
            boolean raised = outcomes.get(8).status() == 200;
            assertThat(holds + (raised ? 6 : 2)).as("holds plus blocked uses").isLessThanOrEqualTo(10);
            if (!raised) {
                assertThat(outcomes.get(8).code()).isEqualTo("quota_exhausted");
            }
            Invariants.assertNeverOversold(sql, event);
        }
    }

    @Test
    void listingOrdersWhileCheckoutsRunNeitherMissesNorRepeatsOne() throws Exception {
        String event = newEvent("race-list-orders");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, null, List.of(item));
        Set<String> existing = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            existing.add(checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201)
                    .extract().<String>path("code"));
        }
        ExecutorService buyers = Executors.newFixedThreadPool(4);
        AtomicBoolean listing = new AtomicBoolean(true);
        CountDownLatch buying = new CountDownLatch(4);
        List<Future<Integer>> placed = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            placed.add(buyers.submit(() -> {
                int orders = 0;
                buying.countDown();
                while (listing.get() && orders < 200) {
                    checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201);
                    orders++;
                }
                return orders;
            }));
        }
        assertThat(buying.await(30, TimeUnit.SECONDS)).isTrue();
        List<String> listed = new ArrayList<>();
        String cursor = null;
        try {
            do {
                var request = admin().queryParam("limit", 7);
                if (cursor != null) {
                    request.queryParam("cursor", cursor);
                }
                JsonPath page = request.get(EVENT + "/orders", event).then().statusCode(200).extract().jsonPath();
                listed.addAll(page.getList("data.code", String.class));
                cursor = page.getString("next_cursor");
            } while (cursor != null);
        } finally {
            listing.set(false);
            buyers.shutdown();
        }
        int placedMeanwhile = 0;
        for (Future<Integer> buyer : placed) {
            placedMeanwhile += buyer.get(60, TimeUnit.SECONDS);
        }
        assertThat(placedMeanwhile).as("checkouts while listing").isPositive();
        assertThat(listed).as("no order twice").doesNotHaveDuplicates();
        assertThat(listed).as("every order that existed").containsAll(existing);
    }
}
