package io.ticketing.reservations.cart;

import static io.ticketing.reservations.support.Api.bestAvailable;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatRows;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Best available seats (contract section 8), one buyer at a time; the race is in the contention tests. */
@QuarkusTest
class BestAvailableTest {

    private static final String BEST = "/api/v1/events/{event}/carts/{cart}/best_available";

    @Test
    void adjacentSeatsOfTheBestRowThenTheNextAndASectionWhenAsked() {
        String event = newEvent("best-rows");
        long item = newSeatedItem(event, "Seat", "30");
        newQuota(event, 100, List.of(item));
        newSeatRows(event, item, "Stalls", List.of("A", "B"), 6);
        newSeatRows(event, item, "Balcony", List.of("A"), 4);
        String cart = newCart(event);

        storefront().body(Map.of("item_id", item, "quantity", 3, "section", "Stalls")).post(BEST, event, cart)
                .then().statusCode(201).body("positions.seat_guid",
                        contains("Stalls-A-1", "Stalls-A-2", "Stalls-A-3"));
        storefront().body(Map.of("item_id", item, "quantity", 4, "section", "Stalls")).post(BEST, event, cart)
                .then().statusCode(201).body("positions", hasSize(7), "positions.seat_guid[3..6]",
                        contains("Stalls-B-1", "Stalls-B-2", "Stalls-B-3", "Stalls-B-4"));
        // Stalls has A4-A6 and B5-B6 left: five seats, no run of five, so two rows.
        storefront().body(Map.of("item_id", item, "quantity", 5, "section", "Stalls")).post(BEST, event, cart)
                .then().statusCode(201).body("positions.seat_guid[7..11]",
                        contains("Stalls-A-4", "Stalls-A-5", "Stalls-A-6", "Stalls-B-5", "Stalls-B-6"));
        bestAvailable(event, cart, item, 4).then().statusCode(201).body("positions.seat_guid[12..15]",
                contains("Balcony-A-1", "Balcony-A-2", "Balcony-A-3", "Balcony-A-4"));
        bestAvailable(event, newCart(event), item, 1).then().statusCode(409)
                .body("code", equalTo("seat_unavailable"), "available_number", equalTo(0));
    }

    @Test
    void allOrNothingAndClearRefusals() {
        String event = newEvent("best-refusals");
        long item = newSeatedItem(event, "Seat", "30");
        long standing = newItem(event, "Standing", "10");
        newQuota(event, 100, List.of(item, standing));
        newSeatRows(event, item, "Stalls", List.of("A"), 3);
        String cart = newCart(event);

        bestAvailable(event, cart, item, 4).then().statusCode(409).body("code", equalTo("seat_unavailable"),
                "available_number", equalTo(3));
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().body("positions", hasSize(0));
        bestAvailable(event, cart, 999_999, 1).then().statusCode(404);
        bestAvailable(event, cart, standing, 1).then().statusCode(409).body("code", equalTo("seat_unavailable"));
        storefront().body(Map.of("item_id", item, "quantity", 0)).post(BEST, event, cart).then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        storefront().body(Map.of("quantity", 1)).post(BEST, event, cart).then().statusCode(400);
        bestAvailable(event, "no-such-cart-0000000000000", item, 1).then().statusCode(404);
    }

    @Test
    void aSmallerQuotaStillRefuses() {
        String event = newEvent("best-quota");
        long item = newSeatedItem(event, "Seat", "30");
        newQuota(event, 2, List.of(item));
        newSeatRows(event, item, "Stalls", List.of("A"), 6);
        bestAvailable(event, newCart(event), item, 3).then().statusCode(409).body("code", equalTo("quota_exhausted"));
        bestAvailable(event, newCart(event), item, 2).then().statusCode(201);
    }
}
