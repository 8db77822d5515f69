package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
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
import io.ticketing.reservations.support.Sql;

/**
 * The admin pages through orders while buyers check out: a list never misses nor repeats an order. (The admin's
 * edits that race buyers are in {@link Races}, with and without the locks.)
 */
@QuarkusTest
class AdminContentionTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Inject
    Sql sql;

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
