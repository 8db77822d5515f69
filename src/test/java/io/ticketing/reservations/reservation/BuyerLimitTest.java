package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newCartOf;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Per-buyer limits (contract section 8): what one buyer holds and buys across carts and orders. */
@QuarkusTest
class BuyerLimitTest {

    private static final String EVENT = "/api/v1/events/{event}";

    private static void limitItem(String event, long item, Object limit) {
        String etag = admin().get(EVENT + "/items/{item}", event, item).then().extract().header("ETag");
        Map<String, Object> body = new HashMap<>();
        body.put("max_per_buyer", limit);
        admin().header("If-Match", etag).body(body).patch(EVENT + "/items/{item}", event, item).then()
                .statusCode(200).body("max_per_buyer", equalTo(limit));
    }

    private static Map<String, Object> tickets(long item, int quantity) {
        return Map.of("item_id", item, "quantity", quantity);
    }

    @Test
    void anItemLimitCountsEveryCartAndOrderOfTheBuyer() {
        String event = newEvent("buyer-item");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 100, List.of(item));
        limitItem(event, item, 2);

        String first = newCartOf(event, "ada");
        storefront().get(EVENT + "/carts/{cart}", event, first).then().body("buyer", equalTo("ada"));
        addToCart(event, first, tickets(item, 2)).then().statusCode(201);
        String second = newCartOf(event, "ada");
        addToCart(event, second, tickets(item, 1)).then().statusCode(409)
                .body("code", equalTo("buyer_limit"), "max_per_buyer", equalTo(2), "held", equalTo(2));
        addToCart(event, newCartOf(event, "grace"), tickets(item, 2)).then().statusCode(201);

        String code = checkout(event, first).then().statusCode(201).body("buyer", equalTo("ada")).extract()
                .path("code");
        addToCart(event, second, tickets(item, 1)).then().statusCode(409).body("code", equalTo("buyer_limit"));
        admin().post(EVENT + "/orders/{code}/cancel", event, code).then().statusCode(200);
        addToCart(event, second, tickets(item, 2)).then().statusCode(201);
    }

    @Test
    void anEventLimitCountsAllItemsTogether() {
        String event = newEvent("buyer-event");
        long standing = newItem(event, "Standing", "10");
        long seated = newItem(event, "Seated", "20");
        long merch = newItem(event, "Poster", "5");
        newQuota(event, 100, List.of(standing, seated, merch));
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 3)).patch(EVENT, event).then()
                .statusCode(200).body("max_per_buyer", equalTo(3));

        String cart = newCartOf(event, "ada");
        addToCart(event, cart, tickets(standing, 2)).then().statusCode(201);
        storefront().body(Map.of("positions", List.of(tickets(seated, 1), tickets(merch, 1))))
                .post(EVENT + "/carts/{cart}/positions", event, cart).then().statusCode(409)
                .body("code", equalTo("buyer_limit"), "max_per_buyer", equalTo(3));
        addToCart(event, newCartOf(event, "ada"), tickets(seated, 1)).then().statusCode(201);
    }

    @Test
    void aLimitedItemNeedsABuyerAndUnlimitedOnesDoNot() {
        String event = newEvent("buyer-required");
        long limited = newItem(event, "Limited", "10");
        long free = newItem(event, "Free", "10");
        newQuota(event, 100, List.of(limited, free));
        limitItem(event, limited, 4);

        String anonymous = newCart(event);
        storefront().get(EVENT + "/carts/{cart}", event, anonymous).then().body("buyer", nullValue());
        addToCart(event, anonymous, tickets(free, 5)).then().statusCode(201);
        addToCart(event, anonymous, tickets(limited, 1)).then().statusCode(409)
                .body("code", equalTo("buyer_required"), "item_id", equalTo((int) limited));

        limitItem(event, limited, null);
        addToCart(event, anonymous, tickets(limited, 5)).then().statusCode(201);
    }

    @Test
    void badLimitsAndBuyersAreRefusedAndChangeNothing() {
        String event = newEvent("buyer-input");
        long item = newItem(event, "Ticket", "10");
        admin().header("If-Match", "\"0\"").body(Map.of("max_per_buyer", 0))
                .patch(EVENT + "/items/{item}", event, item).then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        admin().body(Map.of("name", "Ticket", "price", "1.00", "max_per_buyer", "two"))
                .post(EVENT + "/items", event).then().statusCode(400);
        admin().get(EVENT + "/items/{item}", event, item).then().body("max_per_buyer", nullValue(),
                "version", equalTo(0));
        storefront().body(Map.of("buyer", "")).post(EVENT + "/carts", event).then().statusCode(400)
                .body("code", equalTo("validation_failed"));
        storefront().body(Map.of("buyer", "ada", "name", "x")).post(EVENT + "/carts", event).then()
                .statusCode(400);
    }
}
